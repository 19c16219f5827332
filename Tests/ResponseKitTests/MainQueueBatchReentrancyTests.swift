import Dispatch
import Foundation
import ResponseKit
import ResponseKitTesting
import XCTest

/// What a main-queue job leaves behind when the main queue is done with it (its closure, what the
/// closure captured) is released while the main queue drains; that release may run user code on
/// the main thread, such as a `.immediate` callback of a response abandoned by it, and that code
/// may block. XCTest runs synchronous tests on the main thread, which these cases need.
final class MainQueueBatchReentrancyTests: XCTestCase {
    /// A `.main` callback holds the last resolver of a `.immediate` response and never uses it;
    /// once the callback has run and is released, that response is abandoned and its failure
    /// callback runs inline, on the main thread, inside the main queue's drain. There it blocks on
    /// work that ResponseKit put on the main queue, which the wait must run.
    ///
    /// Fails on 384c824 by crashing: the drain releases the finished batch with
    /// `batch.removeAll(...)` (MainQueueJobs.takeBatch), the blocking wait inside that release
    /// runs `runReadyJobs()`, whose `popFromBatch()` reads `batch` during the `removeAll`'s
    /// modify access: "Simultaneous accesses", a runtime exclusivity trap that ends the whole test
    /// process (10 of 10 runs).
    func testABlockingWait_inCodeThatReleasingAFinishedJobRuns_runsTheMainQueueWorkItWaitsFor() throws {
        startRecordingDiagnostics()  // the dropped response is abandoned on purpose
        let (first, firstResolver) = Response<Int>.pending()  // delivers on .main
        let outcome = Response<Int>.pending(on: .immediate)
        Self.holdTheOnlyResolver(in: first, abandoning: outcome.resolver)
        firstResolver.succeed(1)  // queues the callback: it runs in the main queue's next drain
        XCTAssertEqual(try outcome.response.wait(timeout: .seconds(60)), 5)
    }

    /// Registers on `first` a `.main` callback that is the only holder of a `.immediate`
    /// response's resolver; that response's failure callback blocks on main-queue work and hands
    /// what it read to `outcome`.
    private static func holdTheOnlyResolver(in first: Response<Int>, abandoning outcome: Resolver<Int>) {
        let (dropped, droppedResolver) = Response<Int>.pending(on: .immediate)
        dropped.onFailure { _ in
            // Work ResponseKit runs on the main queue: only the wait itself can run it here.
            let onMain = Response<Int>(on: .main, executor: .immediate) { 5 }
            outcome.resolve(with: Result { try onMain.wait(timeout: .seconds(30)) })
        }
        first.onCompletion { _ in withExtendedLifetime(droppedResolver) {} }
    }
}
