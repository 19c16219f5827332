@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceRunner {
    /// Whether a ``ServiceRunner`` sends ``LifecycleEvent/didReceiveMemoryWarning`` when the
    /// system is short of memory, and, on Linux, how much stall counts as short.
    ///
    /// On Linux the runner asks the kernel's pressure stall information (PSI) to say when the
    /// process's tasks spent at least `stall` of a `window` waiting for memory (reclaim, swap-in,
    /// thrashing): a trigger `some <stall µs> <window µs>` on the cgroup's `memory.pressure`, or
    /// on `/proc/pressure/memory` for the whole system. On Apple platforms Dispatch's
    /// memory-pressure source says it (warning or critical), and the threshold does not apply.
    /// Either way at most one warning is sent per window.
    ///
    /// <!-- example: fragment @MainActor -->
    /// ```swift
    /// let services = ServiceManager()   // and register the services
    /// // Warn when tasks stalled on memory for 150 ms of any 2 s, rather than 200 ms.
    /// ServiceRunner(
    ///     manager: services,
    ///     memoryPressure: .threshold(stall: .milliseconds(150), window: .seconds(2))
    /// ).run()
    /// ```
    ///
    /// Under systemd (`MemoryPressureWatch=auto` or `on`), the unit's `$MEMORY_PRESSURE_WATCH`
    /// and `$MEMORY_PRESSURE_WRITE` win over the threshold set here: the administrator's
    /// `MemoryPressureThresholdSec=` is the one written; `MemoryPressureWatch=off` turns the
    /// warnings off. Only ``off`` here turns them off whatever the unit says.
    public struct MemoryPressureWatch: Hashable, Sendable, CustomStringConvertible {
        private enum Choice: Hashable, Sendable {
            case off
            case threshold(stall: Duration, window: Duration)
        }

        private let choice: Choice

        /// A stall of 200 ms within 2 s: systemd's default (`MemoryPressureThresholdSec=200ms`
        /// over its 2-second window), so an app behaves the same with or without a unit.
        public static let `default` = threshold(stall: .milliseconds(200), window: .seconds(2))

        /// No memory warnings from the runner: for an app that has nothing to drop, or that
        /// watches memory itself.
        public static let off = MemoryPressureWatch(choice: .off)

        /// Warns when the process's tasks (on Linux) stalled on memory for at least `stall`
        /// within a sliding `window`.
        ///
        /// - Parameters:
        ///   - stall: how long tasks may wait for memory in one window before the app hears of
        ///     it; more than zero and at most `window`.
        ///   - window: the span the kernel measures over, from 500 ms to 10 s; also the least
        ///     time between two warnings.
        /// - Returns: the watch, for ``ServiceRunner``'s `memoryPressure` parameter.
        ///
        /// - Note: A process without `CAP_SYS_RESOURCE` may set only windows that are whole
        ///   multiples of 2 s (the kernel refuses others, Linux 6.6 and later): the runner then logs
        ///   the refusal and sends no warning, and the app runs on.
        /// - Warning: Traps when `stall` or `window` is out of the ranges above: the kernel would
        ///   refuse the trigger on every machine.
        public static func threshold(stall: Duration, window: Duration) -> MemoryPressureWatch {
            precondition(
                window >= .milliseconds(500) && window <= .seconds(10),
                "MemoryPressureWatch.threshold: window \(window) is outside the kernel's 500 ms to 10 s")
            precondition(
                stall > .zero && stall <= window,
                "MemoryPressureWatch.threshold: stall \(stall) must be more than zero and at most the window \(window)")
            return MemoryPressureWatch(choice: .threshold(stall: stall, window: window))
        }

        /// The least time between two warnings; `nil` when off.
        var window: Duration? {
            guard case .threshold(_, let window) = choice else { return nil }
            return window
        }

        /// The PSI trigger, such as `some 200000 2000000`; `nil` when off.
        var trigger: String? {
            guard case .threshold(let stall, let window) = choice else { return nil }
            return "some \(Self.microseconds(in: stall)) \(Self.microseconds(in: window))"
        }

        /// `off`, or the trigger, such as `some 200000 2000000` (µs of stall, µs of window).
        public var description: String { trigger ?? "off" }

        static func microseconds(in duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        }
    }
}
