import CResponseKit
import Dispatch

/// A live view of the responses that are still pending, and a watchdog for those pending too long.
///
/// A response that never finishes is a silent bug: its callbacks never run and nobody is told.
/// Turn tracking on (at start-up in a debug build, or from a diagnostics command) and ResponseKit
/// records every response made from then on while it is pending. ``pendingResponses()`` lists
/// them with their creation site, age, executor and number of observers; the watchdog reports
/// through ``ResponseDiagnostics`` each one pending longer than a threshold, once.
///
/// <!-- example: fragment -->
/// ```swift
/// ResponseTracking.start()
/// ResponseTracking.startWatchdog(threshold: .seconds(30))
/// // later, say from a debug command:
/// for pending in ResponseTracking.pendingResponses() { print(pending) }
/// ```
///
/// Off by default, and free when off: making a response then reads one flag. When on, each
/// pending response costs an entry in a locked table (and a weak reference) until it finishes.
/// Only responses made while tracking is on are listed.
public enum ResponseTracking {
    /// Whether responses made now are tracked.
    public static var isEnabled: Bool { rk_tracking_enabled() }

    /// Tracks every response made from now on while it is pending. Calling it again does nothing.
    public static func start() {
        rk_set_tracking_enabled(true)
    }

    /// Stops tracking and the watchdog, and forgets the responses tracked so far.
    public static func stop() {
        rk_set_tracking_enabled(false)
        registry.withLock { registry in
            registry.entries.removeAll()
            registry.watchdogGeneration &+= 1
        }
    }

    /// The tracked responses that are still pending, oldest first.
    public static func pendingResponses() -> [PendingResponse] {
        snapshots(of: liveEntries { _, _ in true })
    }

    // MARK: - Watchdog

    /// Reports, through ``ResponseDiagnostics`` (kind ``ResponseDiagnostic/Kind/longPending``),
    /// each tracked response pending longer than `threshold`, once, checking every `interval`.
    /// Starts tracking if it is off. Replaces a watchdog already running.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// ResponseTracking.startWatchdog(threshold: .seconds(30))
    /// ```
    ///
    /// - Parameters:
    ///   - threshold: how long a response may stay pending before it is reported.
    ///   - interval: how often to check; half the threshold by default (at least 10 ms).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public static func startWatchdog(threshold: Duration, interval: Duration? = nil) {
        startWatchdog(thresholdNanoseconds: nanoseconds(threshold), intervalNanoseconds: interval.map(nanoseconds))
    }

    /// ``startWatchdog(threshold:interval:)-(Duration,_)`` in `DispatchTimeInterval`, for platforms before
    /// `Duration` (macOS 13, iOS 16).
    ///
    /// - Parameters:
    ///   - threshold: how long a response may stay pending before it is reported.
    ///   - interval: how often to check; half the threshold by default (at least 10 ms).
    @_disfavoredOverload
    @available(swift, deprecated: 6.0, message: "pass a Duration, as every other duration in ResponseKit")
    public static func startWatchdog(threshold: DispatchTimeInterval, interval: DispatchTimeInterval? = nil) {
        startWatchdog(thresholdNanoseconds: nanoseconds(threshold), intervalNanoseconds: interval.map(nanoseconds))
    }

    private static func startWatchdog(thresholdNanoseconds: UInt64, intervalNanoseconds: UInt64?) {
        start()
        let every = max(intervalNanoseconds ?? thresholdNanoseconds / 2, 10_000_000)
        let generation = registry.withLock { registry in
            registry.watchdogGeneration &+= 1
            return registry.watchdogGeneration
        }
        scheduleCheck(generation: generation, every: every, threshold: thresholdNanoseconds)
    }

    /// Stops the watchdog; tracking goes on.
    public static func stopWatchdog() {
        registry.withLock { $0.watchdogGeneration &+= 1 }
    }

    /// What the watchdog does at each check, now: reports each tracked response pending longer
    /// than `threshold` that was not reported before, and returns them.
    ///
    /// - Parameter threshold: how long a response may stay pending before it is reported.
    /// - Returns: the responses reported by this call, oldest first.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @discardableResult
    public static func reportPending(longerThan threshold: Duration) -> [PendingResponse] {
        reportPending(longerThanNanoseconds: nanoseconds(threshold))
    }

    /// ``reportPending(longerThan:)-(Duration)`` in `DispatchTimeInterval`, for platforms before `Duration`.
    ///
    /// - Parameter threshold: how long a response may stay pending before it is reported.
    /// - Returns: the responses reported by this call, oldest first.
    @_disfavoredOverload
    @available(swift, deprecated: 6.0, message: "pass a Duration, as every other duration in ResponseKit")
    @discardableResult
    public static func reportPending(longerThan threshold: DispatchTimeInterval) -> [PendingResponse] {
        reportPending(longerThanNanoseconds: nanoseconds(threshold))
    }

    // MARK: - The engine's side

    /// Records `response`, just made and pending.
    @usableFromInline
    static func track(_ response: some AnyResponse) {
        let entry = Entry(response: response, madeAt: DispatchTime.now().uptimeNanoseconds)
        registry.withLock { $0.entries[ObjectIdentifier(response)] = entry }
    }

    /// Forgets a response that finished, or was released pending.
    @usableFromInline
    static func untrack(_ response: ObjectIdentifier) {
        registry.withLock { _ = $0.entries.removeValue(forKey: response) }
    }

    // MARK: - Implementation

    struct Entry: Sendable {
        /// Weak: tracking must not keep a response alive.
        weak var response: (any AnyResponse)?
        let madeAt: UInt64
        var reported = false
    }

    private struct Registry: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The running watchdog's number: a check of an older one (stopped or replaced) ends it.
        var watchdogGeneration: UInt64 = 0
    }

    private static let registry = LockedBox.make(Registry())
    private static let watchdogQueue = DispatchQueue(label: "ResponseKit.ResponseTracking.watchdog")

    /// One watchdog check after `every`, then the next, while the watchdog is this generation.
    private static func scheduleCheck(generation: UInt64, every: UInt64, threshold: UInt64) {
        watchdogQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: every))) {
            guard registry.withLock({ $0.watchdogGeneration == generation }) else { return }
            reportPending(longerThanNanoseconds: threshold)
            scheduleCheck(generation: generation, every: every, threshold: threshold)
        }
    }

    @discardableResult
    private static func reportPending(longerThanNanoseconds threshold: UInt64) -> [PendingResponse] {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = liveEntries { entry, _ in
            // A response made while this check waited for the lock is younger than `now`: a
            // wrapping difference made it look older than any threshold.
            guard !entry.reported, entry.madeAt < now, now - entry.madeAt > threshold else { return false }
            entry.reported = true
            return true
        }
        var reported: [PendingResponse] = []
        for entry in due {
            guard let pending = snapshots(of: [entry]).first else { continue }
            reported.append(pending)
            ResponseDiagnostics.report(
                .longPending,
                "\(pending) (the watchdog's threshold is \(PendingResponse.seconds(.nanoseconds(Int(clamping: threshold))))); "
                    + "is its work stuck, or was its resolver kept but forgotten?",
                file: pending.file,
                line: pending.line,
                about: entry.response
            )
        }
        return reported
    }

    /// The entries `select` picks (it may mark them), with their responses held strongly, oldest
    /// first. The strong references are taken under the lock but released by the caller after
    /// it: releasing the last one runs the response's deinit, which takes this lock.
    private static func liveEntries(
        _ select: (inout Entry, _ id: ObjectIdentifier) -> Bool
    ) -> [(response: any AnyResponse, madeAt: UInt64)] {
        let live = registry.withLock { registry in
            var live: [(response: any AnyResponse, madeAt: UInt64)] = []
            for id in Array(registry.entries.keys) {
                guard var entry = registry.entries[id], let response = entry.response else { continue }
                if select(&entry, id) { live.append((response, entry.madeAt)) }
                registry.entries[id] = entry
            }
            return live
        }
        return live.sorted { $0.madeAt < $1.madeAt }
    }

    private static func snapshots(of live: [(response: any AnyResponse, madeAt: UInt64)]) -> [PendingResponse] {
        let now = DispatchTime.now().uptimeNanoseconds
        return live.compactMap { response, madeAt in
            response.pendingSnapshot(age: .nanoseconds(Int(clamping: now &- madeAt)))
        }
    }

    /// `duration` in nanoseconds (negative ones count as zero).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        duration.saturatingNanoseconds
    }

    /// `interval` in nanoseconds (negative ones count as zero); `.never` is the largest there is.
    static func nanoseconds(_ interval: DispatchTimeInterval) -> UInt64 {
        func scaled(_ value: Int, by factor: UInt64) -> UInt64 {
            let (product, overflow) = UInt64(clamping: value).multipliedReportingOverflow(by: factor)
            return overflow ? .max : product
        }
        switch interval {
        case .seconds(let seconds): return scaled(seconds, by: 1_000_000_000)
        case .milliseconds(let milliseconds): return scaled(milliseconds, by: 1_000_000)
        case .microseconds(let microseconds): return scaled(microseconds, by: 1_000)
        case .nanoseconds(let nanoseconds): return UInt64(clamping: nanoseconds)
        case .never: return .max
        @unknown default: return .max
        }
    }
}

extension Response {
    @usableFromInline
    func pendingSnapshot(age: DispatchTimeInterval) -> PendingResponse? {
        let observers = waitingCallbackCount
        guard !isDone else { return nil }
        return PendingResponse(
            typeName: "\(Self.self)",
            file: file,
            line: line,
            executor: executor,
            observerCount: observers,
            age: age
        )
    }
}
