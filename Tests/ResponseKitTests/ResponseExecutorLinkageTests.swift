import Dispatch
import Synchronization
import Testing

@testable import ResponseKit

/// A response whose executor is a queue or the caller's own keeps it in its extras, and
/// `Response.executor` reads it without the lock while other threads change the response under
/// the lock (registering callbacks, observers, handlers; resolving). These tests overlap the two;
/// the thread sanitizer (CI) reports any read that touches what those writes change.
struct ResponseExecutorLinkageTests {
    /// Enough rounds for both lanes to overlap on a loaded two-core machine; quick in debug.
    static let rounds = 300

    @Test func readingTheExecutor_whileCallbacksRegister_touchesNothingTheyWrite() {
        let queue = DispatchQueue(label: "delivery")
        let (response, resolver) = Response<Int>.pending(on: .queue(queue))
        let delivered = Atomic<Int>(0)
        let allDelivered = DispatchSemaphore(value: 0)
        let callbacks = 2 * Self.rounds
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<Self.rounds {
                response.onCompletion { _ in
                    if delivered.add(1, ordering: .relaxed).newValue == callbacks { allDelivered.signal() }
                }
                #expect(response.executor.description == "queue(delivery)")
            }
        }
        resolver.succeed(1)
        #expect(allDelivered.wait(timeout: .now() + 30) == .success)
    }

    @Test func readingTheExecutor_whileObserversHandlersAndResolutionRace_touchesNothingTheyWrite() {
        let queue = DispatchQueue(label: "delivery")
        let (response, resolver) = Response<Int>.pending(on: .queue(queue))
        let results = Atomic<Int>(0)
        let allResults = DispatchSemaphore(value: 0)
        let lanes = 4
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for round in 0..<Self.rounds {
                switch lane {
                case 0:
                    _ = response.executor
                    resolver.reportProgress(Double(round) / Double(Self.rounds))
                case 1:
                    if round == Self.rounds / 2 { _ = response.cancel() }
                    resolver.onCancel {}
                    response.onProgress { _ in }
                    _ = response.map { $0 + 1 }
                case 2:
                    response.onResult { _ in
                        if results.add(1, ordering: .relaxed).newValue == Self.rounds { allResults.signal() }
                    }
                    _ = response.executor
                default:
                    if round == Self.rounds / 2 { resolver.succeed(round) }
                    _ = response.executor
                }
            }
        }
        #expect(allResults.wait(timeout: .now() + 30) == .success)
        #expect("\(response.executor)" == "queue(delivery)")
    }
}
