import ExecutableRun
import Testing

/// A stall of Dispatch's worker pool is not a main-queue deadlock (issue 33, 1): on Linux, tests
/// blocked in reads hold the pool's threads, and global-queue work then waits up to a second for
/// libdispatch's monitor to add one. A wait on the main queue counts only the time the pool was
/// free, so it reports no `mainQueueBlocked` for work that was only waiting for a thread.
///
/// In a process of its own (`ResponseKitFixture pool-stall`): a stalled pool in this one would
/// hold up every test running beside it.
struct WorkerPoolStallTests {
    @Test func aReadInAMainQueueJob_onWorkStalledForAThread_isNotReportedAsABlockedMainQueue() throws {
        let run = try ExecutableRun("ResponseKitFixture", ["pool-stall"])
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("read 42"), "\(run.standardOutput)")
        // Where the main queue's job ran on the main thread, its read kept the main queue going.
        if run.standardOutput.contains("on the main thread: false") {
            #expect(
                !run.standardError.contains("mainQueueBlocked"),
                "a stalled worker pool was reported as a blocked main queue: \(run.standardError)")
        }
    }
}
