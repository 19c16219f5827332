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

    init(wakesMainRunLoop: Bool) {
        self.wakesMainRunLoop = wakesMainRunLoop
    }

    @usableFromInline
    func wake() {
        semaphore.signal()
        if wakesMainRunLoop { DispatchQueue.main.async {} }
    }
}
