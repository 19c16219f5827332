import Dispatch
import ResponseKitTesting
import Testing

@testable import ResponseKit

/// `Response(on: queue) { … }` sends its work to Dispatch as one job through `dispatch_async_f`
/// (`DispatchJob`), and a job whose response delivers on `.main` is released on the main queue,
/// which made it (`MainQueueJobs.release`).
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

    /// A job sent home while a drain of the main queue is scheduled is released there, after the
    /// jobs queued before it, not on the thread that finished it.
    @MainActor
    @Test func aJobSentHome_isReleasedOnTheMainQueue() throws {
        let released = Recorder<Bool>()
        weak var weakJob: DispatchJob?
        MainQueueJobs.enqueue {}  // a drain is scheduled: the main actor (this test) holds it back
        let handedOver = DispatchSemaphore(value: 0)
        do {
            let job = ReleaseProbe(released: released)
            weakJob = job
            // Handed over whole, as Dispatch hands a job over: the closure keeps no reference.
            let reference = Unmanaged.passRetained(job)
            DispatchQueue.global().async {
                MainQueueJobs.release(reference.takeRetainedValue())
                handedOver.signal()
            }
        }
        #expect(handedOver.wait(timeout: .now() + 60) == .success)
        #expect(weakJob != nil)  // kept by the main queue's jobs
        #expect(released.values.isEmpty)

        MainQueueJobs.runReadyJobs()
        #expect(weakJob == nil)
        #expect(released.values == [true])  // released on the main queue
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

/// A job that records, when freed, whether it was freed on the main queue.
private final class ReleaseProbe: DispatchJob, @unchecked Sendable {
    // @unchecked Sendable, proved: its one stored property is a `let` of a Sendable type.
    let released: Recorder<Bool>

    init(released: Recorder<Bool>) {
        self.released = released
        super.init { _ in false }
    }

    deinit {
        released.record(MainQueue.isCurrent)
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
