/// One way a response's progress is observed.
@usableFromInline
enum ProgressObserver: Sendable {
    /// A user callback, on the response's executor.
    case sendable(@Sendable (Double) -> Void)
    /// A user callback, on the main actor.
    case mainActor(@MainActor (Double) -> Void)
    /// An internal observer (a combinator aggregating its inputs): inline, on the reporting thread.
    case inline(@Sendable (Double) -> Void)
}

/// A response's progress: the latest fraction reported, what its observers last heard, and whether
/// a delivery is on its way. Made on first use, so a response whose work reports no progress and
/// that nobody asks about pays nothing.
///
/// Deliveries are coalesced: while one is scheduled, later reports only raise `value`, and the
/// delivery hands out the latest. Values never go backwards, and a success ends at 1.
// Safety of `@unchecked Sendable`: the mutable fields are read and written only while the lock of
// the one response that made the channel is held: by the state machine's transitions (which run
// only inside that response's `withLock`) and by `Response.deliverProgress`, which takes the same
// lock. The channel is reachable only from that response's machine, its completion's links and
// its own delivery jobs, which all go through that lock. The thread sanitizer sees the lock
// (C11 atomics) and checks this in CI.
@usableFromInline
final class ProgressChannel: @unchecked Sendable {
    @usableFromInline var value = 0.0
    @usableFromInline var delivered = 0.0
    @usableFromInline var isDeliveryScheduled = false
    @usableFromInline var observers: [ProgressObserver] = []
    /// Runs once, when the first observer arrives: how `all` starts following its inputs only when
    /// someone follows it.
    @usableFromInline var onFirstObserver: (@Sendable () -> Void)?

    @usableFromInline
    init() {}

    /// Records `fraction` unless it goes backwards; returns whether the caller must schedule a
    /// delivery.
    func report(_ fraction: Double) -> Bool {
        guard fraction > value else { return false }
        value = fraction
        return scheduleIfNeeded()
    }

    /// A success: progress ends at 1. Returns this channel when the caller must schedule the
    /// delivery that says so.
    @usableFromInline
    func finish(succeeded: Bool) -> ProgressChannel? {
        onFirstObserver = nil  // it may hold the response that holds this channel
        if succeeded { value = 1 }
        return scheduleIfNeeded() ? self : nil
    }

    /// Adds `observer`. Returns what the others heard already (for it to hear at once), whether
    /// the caller must schedule a delivery (progress reported before anyone observed it), and the
    /// first-observer hook to run.
    ///
    /// While a delivery is on its way, the new observer hears nothing at once: that delivery hands
    /// it the latest value, and a separate job with the older value, queued behind it on the
    /// executor, would make its progress go backwards.
    func add(
        _ observer: ProgressObserver
    ) -> (heardAlready: Double?, mustSchedule: Bool, onFirstObserver: (@Sendable () -> Void)?) {
        observers.append(observer)
        let hook = onFirstObserver
        onFirstObserver = nil
        let heardAlready = delivered > 0 && !isDeliveryScheduled ? delivered : nil
        return (heardAlready, scheduleIfNeeded(), hook)
    }

    /// What a delivery hands out: the latest value and the observers, unless they heard it already.
    func takeDelivery() -> (value: Double, observers: [ProgressObserver])? {
        isDeliveryScheduled = false
        guard value > delivered, !observers.isEmpty else { return nil }
        delivered = value
        return (value, observers)
    }

    private func scheduleIfNeeded() -> Bool {
        guard !observers.isEmpty, value > delivered, !isDeliveryScheduled else { return false }
        isDeliveryScheduled = true
        return true
    }
}
