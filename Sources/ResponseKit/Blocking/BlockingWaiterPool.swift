/// Blocking waiters kept for reuse, so that a blocking read that sleeps (off the main thread and
/// outside main-queue jobs) allocates nothing between starting the work and going to sleep.
///
/// Why: in a round trip (a global queue resolves while the caller blocks on ``Response/value``),
/// how soon the caller sleeps after the work was sent decides how the kernel places the two
/// threads, and with it whether the round trip takes its fast or its slow time (about twice as
/// long). A fresh waiter costs three allocations on that path (the waiter, its
/// `DispatchSemaphore` and Dispatch's semaphore object); with them, W4's blocking read took the
/// fast path less often than a bare semaphore; with recycled waiters, as often (the runs:
/// Benchmarks/README.md, "Measurements behind the engine's comments").
///
/// A recycled waiter can still hear one wake-up meant for its last wait: a response sets its
/// `done` flag before it wakes its waiters, so a wait may see the flag, end and be recycled before
/// its wake-up arrives; and a wait that timed out may lose the race to remove itself. Every wait
/// checks what it waits for after each wake-up (`BlockingWait`), so such a wake-up costs one more
/// look, at the start of a later wait (which takes it from the semaphore's count without
/// sleeping) or as a spurious wake-up of one. None is taken back when the waiter is recycled: that
/// would cost a system call (a timed wait on an empty semaphore), or block until the wake-up
/// arrives. Waiters parked inside main-queue jobs, which hear every job enqueued while they wait,
/// are not recycled.
@usableFromInline
enum BlockingWaiterPool {
    /// Enough for the threads that commonly block at once; more waiters are made and dropped.
    static let capacity = 16

    private static let free = LockedBox.make([BlockingWaiter]())

    /// How many waiters the pool holds now (for tests).
    static var keptCount: Int {
        free.withLock { $0.count }
    }

    /// A waiter for a wait that sleeps on its semaphore: a recycled one when there is one.
    @usableFromInline
    static func take() -> BlockingWaiter {
        free.withLock { $0.popLast() } ?? BlockingWaiter(wakesMainRunLoop: false, recordsWake: false)
    }

    /// Keeps `waiter`, whose wait is over, for the next wait; drops it when the pool is full.
    @usableFromInline
    static func recycle(_ waiter: BlockingWaiter) {
        precondition(!waiter.wakesMainRunLoop, "ResponseKit: a run-loop waiter is never recycled")
        free.withLock { free in
            if free.count < capacity { free.append(waiter) }
        }
    }
}
