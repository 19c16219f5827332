import ResponseKit

/// A first-in, first-out queue of jobs that any thread may push to.
///
/// A popped job leaves the queue at once: what it captured is freed when it has run, not when the
/// queue next empties, and outside the lock, since freeing it may push another job.
final class JobQueue: Sendable {
    private struct Storage {
        /// Popped slots are `nil` until the queue empties and is reset.
        var jobs: [(@Sendable () -> Void)?] = []
        var head = 0
        /// How many jobs were ever pushed: the number the next job gets, counting from 0.
        var pushed = 0
    }

    private let storage = LockedBox.make(Storage())

    var count: Int { storage.withLock { $0.jobs.count - $0.head } }

    /// How many jobs wait, and the number the next job pushed will get: the jobs waiting are the
    /// last `count` numbered below it.
    var countAndNextNumber: (count: Int, next: Int) {
        storage.withLock { ($0.jobs.count - $0.head, $0.pushed) }
    }

    func push(_ job: @escaping @Sendable () -> Void) {
        storage.withLock { storage in
            storage.jobs.append(job)
            storage.pushed += 1
        }
    }

    func pop() -> (@Sendable () -> Void)? {
        storage.withLock { storage in
            guard storage.head < storage.jobs.count else { return nil }
            let job = storage.jobs[storage.head].take()
            storage.head += 1
            if storage.head == storage.jobs.count {
                storage.jobs.removeAll(keepingCapacity: true)
                storage.head = 0
            }
            return job
        }
    }
}
