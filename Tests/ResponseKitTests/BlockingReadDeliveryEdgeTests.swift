import Dispatch
import Foundation
import ResponseKit
import ResponseKitTesting
import Testing

/// The edges of a blocking read that settles its response's deliveries on the main queue: a read
/// inside the response's own delivery, a delivery held up by a callback before the read, and a
/// timeout that passes while the delivery is under way.
///
/// Each case runs inside a `DispatchQueue.main` job, where a read that waited for the wrong thing
/// would hold the main queue for good; the test itself waits off the main queue, with a generous
/// limit that only matters when the code is broken.
struct BlockingReadDeliveryEdgeTests {
    /// Runs `body` as a main-queue job and returns what it returns, failing after 30 s instead of
    /// hanging when the job never ends.
    func onTheMainQueue<T: Sendable>(_ body: @escaping @MainActor @Sendable () throws -> T) throws -> T {
        let outcome = Response<T>.pending(on: .immediate)
        DispatchQueue.main.async {
            outcome.resolver.resolve(with: Result { try MainActor.assumeIsolated { try body() } })
        }
        return try outcome.response.wait(timeout: .seconds(30))
    }

    // MARK: - a read inside the response's own delivery

    @Test func aCallbackReadingItsOwnResponse_returnsAtOnce() throws {
        let read = try onTheMainQueue { () -> Int in
            let (response, resolver) = Response<Int>.pending()
            let seen = Response<Int>.pending(on: .immediate)
            response.onResult(on: .immediate) { _ in seen.resolver.resolve(with: response.result) }
            resolver.succeed(1)  // delivered right here, on the main queue
            return try seen.response.value
        }
        #expect(read == 1)
    }

    @Test func anAlwaysStepReadingTheResponseItFollows_returnsAtOnce() throws {
        let read = try onTheMainQueue { () -> String in
            let (response, resolver) = Response<Int>.pending()
            let logged = Response<String>.pending(on: .immediate)
            _ = response.always { _ in logged.resolver.succeed("error: \(String(describing: response.error))") }
            resolver.succeed(1)
            return try logged.response.value
        }
        #expect(read == "error: nil")
    }

    @Test func aCancellationHandlerReadingItsResponse_returnsAtOnce() throws {
        let read = try onTheMainQueue { () -> Bool in
            let (response, resolver) = Response<Int>.pending()
            let seen = Response<Bool>.pending(on: .immediate)
            resolver.onCancel { seen.resolver.succeed(response.error is CancellationError) }
            response.cancel()
            return try seen.response.value
        }
        #expect(read)
    }

    @Test func aZeroTimeoutInsideTheResponsesOwnDelivery_onlyLooks() throws {
        let read = try onTheMainQueue { () -> Int? in
            let (response, resolver) = Response<Int>.pending()
            let seen = Response<Int?>.pending(on: .immediate)
            response.onCompletion(on: .immediate) { _ in seen.resolver.succeed(try? response.wait(timeout: .zero)) }
            resolver.succeed(2)
            return try seen.response.value
        }
        #expect(read == 2)
    }

    // MARK: - a delivery held up by a callback before the read

    @Test func aDoneResponseWhoseEarlierCallbackWaitsForTheMainQueue_isReadAndReported() throws {
        startRecordingDiagnostics()
        let (response, resolver) = Response<Int>.pending()
        let line = UInt(#line) - 1
        // Registered before the read: it needs the main queue, which the read below holds.
        response.onCompletion(on: .immediate) { _ in DispatchQueue.main.sync {} }
        let read = try onTheMainQueue { () -> Int in
            Thread.detachNewThread { resolver.succeed(3) }  // its thread then waits for the main queue
            return try response.value  // done at once; its delivery cannot reach the read
        }
        #expect(read == 3)
        let reports = diagnostics(forResponseCreatedAt: line).filter { $0.kind == .mainQueueBlocked }
        #expect(reports.count == 1)
        #expect(reports.first?.message.contains("is done, but a callback registered before") == true)
    }

    // MARK: - a timeout passing while the delivery is under way

    @Test func aTimeoutThatPassesWhileTheDeliveryIsUnderWay_stillSettlesThePresenter() throws {
        let presented = try onTheMainQueue { () -> [Int] in
            var shown: [Int] = []
            let (response, resolver) = Response<Int>.pending()
            let gate = DispatchSemaphore(value: 0)
            // Holds the delivery on the resolving thread until well after the read's deadline.
            response.onCompletion(on: .immediate) { _ in _ = gate.wait(timeout: .now() + 30) }
            response.mainActor.onCompletion { shown.append($0) }
            // Threads of their own, not Dispatch's pool: a blocked pool thread on two cores can
            // delay a global queue's next job by the whole test.
            Thread.detachNewThread { resolver.succeed(7) }
            // Done (the flag is set before the delivery starts), its delivery held at the gate.
            let limit = DispatchTime.now() + 30
            while !response.isDone, DispatchTime.now() < limit { sched_yield() }
            Thread.detachNewThread {
                usleep(100_000)  // the scenario, not a wait: the read's 20 ms deadline passes first
                gate.signal()
            }
            let value = try response.wait(timeout: .milliseconds(20))
            return shown + [value]
        }
        #expect(presented == [7, 7])
    }
}
