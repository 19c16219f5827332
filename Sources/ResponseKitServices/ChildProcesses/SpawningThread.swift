import CResponseKitServices
import Dispatch
import Foundation
import ResponseKit

/// The one thread that starts every ``ChildProcess``, and never ends.
///
/// Why a thread of its own: Linux sends a child its parent-death signal when the *thread* that
/// forked it ends, not the process (`prctl(2)`, `PR_SET_PDEATHSIG`). libdispatch ends idle worker
/// threads after a few seconds, and a child started on one would be killed with it; the main
/// thread may be busy. This thread only forks, so a caller waits a few milliseconds at most, behind
/// another spawn.
final class SpawningThread: Sendable {
    /// The thread of the process, started on first use.
    static let shared = SpawningThread()

    /// What callers handed over, oldest first.
    private let jobs = LockedBox<[@Sendable () -> Void]>.make([])
    /// Signalled once per job handed over.
    private let jobArrived = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [jobs, jobArrived] in
            // So that `ps -L` and `top -H` show what it is: named through pthreads, at most 15
            // bytes (Foundation's `Thread.name` of 34 bytes left it unnamed: Linux refuses longer).
            rks_name_current_thread("child spawner")
            while true {
                jobArrived.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job()
            }
        }
        thread.start()
    }

    /// Runs `body` on the thread and returns what it returns; the caller waits meanwhile.
    func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        let answer = LockedBox<Result?>.make(nil)
        let answered = DispatchSemaphore(value: 0)
        jobs.withLock {
            $0.append {
                let result = body()
                answer.withLock { $0 = result }
                answered.signal()
            }
        }
        jobArrived.signal()
        answered.wait()
        // The lock orders the thread's store before this load, where the sanitizer sees it.
        guard let result = answer.withLock({ $0 }) else { preconditionFailure("SpawningThread: a job gave no answer") }
        return result
    }
}
