/// The bits of a response's state word that can be read without its lock.
///
/// They answer the questions asked on every hot path (`isDone`, "may I read the result without
/// locking?") in one atomic load, and carry the claims that decide when letting go cancels the
/// response. Bit 0 is the lock and bit 12 says that a thread sleeps waiting for it, on platforms
/// where the lock lives in the word (`RK_LOCK_BIT`, `RK_PARKED_BIT` in `CResponseKit.h`); they are
/// never set or cleared here.
@usableFromInline
enum ResponseFlags {
    /// The response has its result (set once, with release ordering, under the lock).
    @inlinable static var done: UInt32 { 1 << 1 }
    /// The result is a `CancellationError` from ``Response/cancel()``.
    @inlinable static var cancelled: UInt32 { 1 << 2 }
    /// Someone looked at the outcome: a failure is not reported as unobserved.
    @inlinable static var failureObserved: UInt32 { 1 << 3 }
    /// The result is a failure.
    @inlinable static var failed: UInt32 { 1 << 4 }
    /// Every callback registered before or during completion has been handed out: from now on the
    /// state machine is final (`done`, or a `delivering` nobody joined) and the result may be read
    /// without the lock.
    @inlinable static var delivered: UInt32 { 1 << 5 }
    /// The response failed because its last resolver was released unresolved; that was reported
    /// already, so the failure is not reported again as unobserved.
    @inlinable static var abandoned: UInt32 { 1 << 6 }
    /// A callback was queued behind a delivery under way (`ResponseExtras.late`): the completing
    /// thread must end the delivery under the lock, not with the flag alone. Never cleared.
    @inlinable static var lateCallbacks: UInt32 { 1 << 7 }
    /// The response is in `ResponseTracking`'s list while pending: its completion or release
    /// takes it out. Set at creation only.
    @inlinable static var tracked: UInt32 { 1 << 8 }
    /// A callback of the user's waits for the response (set as it registers, never cleared): no
    /// derived response or task letting go cancels it. A flag rather than a claim each, since a
    /// callback never lets go while the response is pending: it cannot overflow the count.
    @inlinable static var observed: UInt32 { 1 << 9 }
    /// A derived response or a task let go wanting the response cancelled while others still held
    /// claims: whoever lets go of the last claim later (a blocking read giving up) cancels it.
    @inlinable static var cancelWanted: UInt32 { 1 << 10 }
    /// The response was made inside a test scope that checks responses (`ResponseCheckScope`):
    /// the scopes' table knows it until its deinit. Set at creation only.
    @inlinable static var checked: UInt32 { 1 << 11 }
    /// One claim: a derived response, an awaiting task or a blocking read that waits for this
    /// response and may let go early. The count takes the bits from ``claimShift`` up.
    @inlinable static var oneClaim: UInt32 { 1 << claimShift }
    /// Where the claim count starts in the word, above the lock's parked bit (12): 19 bits, about
    /// half a million claims at once.
    @inlinable static var claimShift: UInt32 { 13 }
}
