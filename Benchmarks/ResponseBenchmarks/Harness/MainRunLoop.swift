import Foundation

/// Services the main queue from the benchmark's main thread.
///
/// Workloads that deliver on `DispatchQueue.main` (or on the main actor, whose jobs go to the
/// main queue on Linux) need someone to drain it. The main thread does that by running
/// `RunLoop.main`, which drains the main queue each time it wakes, as ResponseKit's own blocking
/// wait does on the main thread.
@MainActor
enum MainRunLoop {
    /// Runs the main run loop until `isDone` returns `true`.
    ///
    /// `isDone` is checked each time the run loop has handled something, so it must become true
    /// in a main-queue job; otherwise the run loop sleeps until `limit` and the run traps.
    static func run(until isDone: () -> Bool, limit: Duration = .seconds(120), workload: String) {
        let deadline = Date(timeIntervalSinceNow: Stopwatch.nanoseconds(limit) / 1e9)
        while !isDone() {
            let ran = RunLoop.main.run(mode: .default, before: deadline)
            precondition(ran, "\(workload): RunLoop.main cannot run on this thread")
            precondition(Date() < deadline, "\(workload): the main queue did not finish the work within \(limit)")
        }
    }

    /// Times `work`, `operations` operations, with the main thread running the main run loop
    /// until its last callback; checks it, and returns nanoseconds per operation.
    static func measure(_ operations: Int, _ work: MainQueueWork) -> Double {
        let progress = Progress()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            work.start { progress.isFinished = true }
            run(until: { progress.isFinished }, workload: work.name)
        }
        work.check()
        return nanoseconds
    }

    /// Whether the work's last callback has run; set in a main-queue job.
    @MainActor
    private final class Progress {
        var isFinished = false
    }
}
