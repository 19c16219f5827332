import Dispatch
import Foundation
import ResponseKit
import Testing

/// A stall of Dispatch's worker pool is not a main-queue deadlock (issue 33, 1): on Linux, tests
/// blocked in reads hold the pool's threads, and global-queue work then waits up to a second for
/// libdispatch's monitor to add one. A wait on the main queue counts only the time the pool was
/// free, so it reports no `mainQueueBlocked` for work that was only waiting for a thread.
@Suite(.serialized) struct WorkerPoolStallTests {
    @Test func aReadInAMainQueueJob_onWorkStalledForAThread_isNotReportedAsABlockedMainQueue() throws {
        startRecordingDiagnostics()
        // Every worker thread blocked, and one more job queued behind them: libdispatch adds one
        // thread a second to a pool whose threads all sleep, so work queued now waits one to two
        // seconds, longer than the half second after which a blocked main queue is reported.
        let blockers = ProcessInfo.processInfo.activeProcessorCount + 1
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<blockers {
            DispatchQueue.global().async { release.wait() }
        }
        defer { for _ in 0..<blockers { release.signal() } }
        let finished = Response<Bool>.pending(on: .immediate)
        let response = Response<Int>(on: .global()) { 42 }
        let creationLine = UInt(#line) - 1
        DispatchQueue.main.async {
            // Under XCTest this job runs on the main thread, which keeps the main queue running;
            // under Swift Testing on Linux it runs on another thread: that is the case.
            let onMainThread = Thread.isMainThread
            _ = try? response.value
            finished.resolver.succeed(onMainThread)
        }
        let ranOnMainThread = try finished.response.value
        #expect(try response.value == 42)
        let reports = diagnostics(forResponseCreatedAt: creationLine).map(\.kind)
        #expect(!reports.contains(.mainQueueBlocked), "a stalled worker pool was reported as a blocked main queue")
        _ = ranOnMainThread
    }
}
