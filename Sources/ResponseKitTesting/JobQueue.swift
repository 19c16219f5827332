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
    }

    private let storage = LockedBox.make(Storage())

    var count: Int { storage.withLock { $0.jobs.count - $0.head } }

    func push(_ job: @escaping @Sendable () -> Void) {
        storage.withLock { $0.jobs.append(job) }
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
