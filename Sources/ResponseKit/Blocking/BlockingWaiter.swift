import Dispatch

/// One blocking wait's wake-up call: registered on the response it waits for (which wakes it on
/// completion) and, inside a main-queue job, parked on ``MainQueueJobs`` (which wakes it when
/// ResponseKit has main-queue work for it to run). Waiters of waits that sleep on their semaphore
/// are reused from one wait to the next (``BlockingWaiterPool``), so a wake-up may arrive late:
/// every wait checks what it waits for after each one.
@usableFromInline
final class BlockingWaiter: ResponseWaiter {
    let semaphore = DispatchSemaphore(value: 0)
    /// The wait runs the main run loop: a wake-up must also post to the main queue to stop it.
    let wakesMainRunLoop: Bool
    /// Whether the response has woken this waiter, which it does in registration order: so every
    /// callback registered before the wait has been handed out (its main-queue job enqueued).
    /// Waits on the main queue end on this rather than on `isDone`, which is set before the
    /// delivery starts; their waiters are never recycled, so it is never stale. `nil` for the
    /// waits that sleep off the main queue (recycled, and ended by `isDone`), whose wake-up then
    /// takes no lock.
    private let wokenByResponse: LockedBox<Bool>?

    /// - Parameters:
    ///   - wakesMainRunLoop: the wait runs the main run loop (see `wakesMainRunLoop`).
    ///   - recordsWake: the wait ends when the response wakes it (``hasBeenWokenByResponse``).
    @usableFromInline
    init(wakesMainRunLoop: Bool, recordsWake: Bool) {
        self.wakesMainRunLoop = wakesMainRunLoop
        wokenByResponse = recordsWake ? LockedBox.make(false) : nil
    }

    /// Called by the response, once, when its delivery reaches this waiter.
    @usableFromInline
    func wake() {
        wokenByResponse?.withLock { $0 = true }
        semaphore.signal()
        if wakesMainRunLoop { DispatchQueue.main.async {} }
    }

    /// Called by ``MainQueueJobs`` for a wait parked inside a main-queue job: there are jobs to run.
    func wakeForMainQueueJobs() {
        semaphore.signal()
    }

    /// Whether the response has woken this waiter (see `wokenByResponse`); `false` for a waiter
    /// made without `recordsWake`.
    var hasBeenWokenByResponse: Bool {
        wokenByResponse?.withLock { $0 } ?? false
    }
}
