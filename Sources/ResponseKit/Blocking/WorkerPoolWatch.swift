import Dispatch

/// Tells a blocking wait on the main queue whether Dispatch's worker threads could take new work
/// while it waited, so that a stall of the thread pool is not mistaken for a main-queue deadlock.
///
/// Why: on Linux, Swift concurrency's threads and `DispatchQueue.global()` share one pool, sized to
/// the cores. Tests that block in a read (`response.value`) hold its threads, and global-queue
/// work then waits until libdispatch's pool monitor adds a thread, which it checks for once a
/// second. A wait on the main queue that counted that second would report a blocked main queue
/// when the work only waited for a thread (issue 33, in parallel runs on two cores).
///
/// How: while the wait goes on it keeps one probe, an empty job, on the global queue. A probe
/// that has not run within ``tolerance`` means the pool has no free thread; the pool counts as
/// stalled until that probe runs. The wait's clock for ``ResponseDiagnostic/Kind/mainQueueBlocked``
/// starts again at the end of the last stall. A probe costs one job every ``interval`` or so, and
/// only waits that hold the main queue past that interval send any.
struct WorkerPoolWatch {
    /// A probe later than this says the pool had no free thread (the work's own jobs wait as long).
    static var tolerance: UInt64 { 50_000_000 }
    /// How long the wait holds the main queue before its first probe.
    static var interval: UInt64 { 100_000_000 }

    /// When the probe in flight ran, in uptime nanoseconds (0 until it runs).
    private final class Probe: Sendable {
        let ranAt = LockedBox.make(UInt64(0))
    }

    private var probe: Probe?
    private var sentAt: UInt64 = 0
    /// When the last stall seen ended (or `now`, while one goes on); 0 when none was seen.
    private(set) var stalledUntil: UInt64 = 0
    /// How long the pool was seen stalled in all.
    private(set) var stalledFor: UInt64 = 0

    /// Looks at the probe in flight, and sends the next one when it has run.
    mutating func look(now: UInt64) {
        guard let probe else { return send(now: now) }
        let ranAt = probe.ranAt.withLock { $0 }
        if ranAt == 0 {
            // Not run yet: a stall, once the probe is late.
            if now &- sentAt > Self.tolerance { noteStall(from: max(sentAt &+ Self.tolerance, stalledUntil), to: now) }
            return
        }
        if ranAt &- sentAt > Self.tolerance { noteStall(from: max(sentAt &+ Self.tolerance, stalledUntil), to: ranAt) }
        send(now: now)
    }

    private mutating func noteStall(from start: UInt64, to end: UInt64) {
        if end > start { stalledFor &+= end &- start }
        stalledUntil = max(stalledUntil, end)
    }

    private mutating func send(now: UInt64) {
        let probe = Probe()
        self.probe = probe
        sentAt = now
        DispatchQueue.global().async { probe.ranAt.withLock { $0 = DispatchTime.now().uptimeNanoseconds } }
    }
}
