import Dispatch
import ResponseKitTesting
import Testing

@testable import ResponseKit

/// `Response(on: queue) { … }` sends its work to Dispatch as one job through `dispatch_async_f`
/// (`DispatchJob`), not as a block.
struct DispatchJobTests {
    /// The fast path is taken on this platform: if the check of where `DispatchQueue` keeps its
    /// queue failed, every job would silently fall back to `DispatchQueue.async`.
    @Test func theQueueOfADispatchQueue_isFound_exceptForTheMainQueue() {
        #expect(DispatchJobs.destination(for: .global()) != nil)
        #expect(DispatchJobs.destination(for: .global(qos: .utility)) != nil)
        #expect(DispatchJobs.destination(for: DispatchQueue(label: "work")) != nil)
        #expect(DispatchJobs.destination(for: .main) == nil)  // ResponseKit's own main-queue jobs
        #expect(DispatchJobs.destination(for: .global()) != DispatchJobs.destination(for: .global(qos: .utility)))
    }

    @Test func bodies_runOnTheirQueue_inTheOrderTheyWereSent() throws {
        let queue = DispatchQueue(label: "serial work")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        queue.suspend()
        let order = Recorder<Int>()
        let responses = (0..<1_000).map { index in
            Response<Bool>(on: queue, executor: .immediate) {
                order.record(index)
                return DispatchQueue.getSpecific(key: key) == true
            }
        }
        queue.resume()
        for response in responses { #expect(try response.value) }
        #expect(order.values == Array(0..<1_000))
    }

    @Test func aBodyThatNobodyReferences_stillRuns_andItsResponseIsFreed() {
        let freed = DispatchSemaphore(value: 0)
        _ = Response<FreedSignal>(on: .global(), executor: .immediate) { FreedSignal(freed) }
        // The value lives as long as the response that holds it: it is freed with the job.
        #expect(freed.wait(timeout: .now() + 60) == .success)
    }

    @Test func aResponseDeliveredOnMain_finishedElsewhere_deliversOnce() async throws {
        let delivered = Recorder<Int>()
        let responses = (0..<200).map { index in Response<Int>(on: .global()) { index } }
        for response in responses { response.onCompletion { delivered.record($0) } }
        for response in responses { _ = try await response.get() }
        await MainActor.run { _ = MainQueueJobs.runReadyJobs() }
        #expect(delivered.values.sorted() == Array(0..<200))
    }
}

/// Signals a semaphore when freed.
private final class FreedSignal: Sendable {
    let freed: DispatchSemaphore

    init(_ freed: DispatchSemaphore) {
        self.freed = freed
    }

    deinit {
        freed.signal()
    }
}
