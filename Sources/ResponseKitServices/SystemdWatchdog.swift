import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Pings systemd's watchdog (`WatchdogSec=`) from the main queue, at half the interval systemd
/// asked for, as `sd_watchdog_enabled(3)` advises.
///
/// The pings come from a Dispatch timer on the main queue, not from a thread of their own, so they
/// prove what matters in a ResponseKit process: that the main queue still runs jobs. A main queue
/// blocked longer than the interval (a deadlock, a blocking read waiting for work queued behind it)
/// sends no ping, and systemd restarts or kills the process as the unit says.
///
/// The timer stops when the watchdog is released.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class SystemdWatchdog {
    /// How often systemd expects a ping: `$WATCHDOG_USEC`.
    let interval: Duration
    private let timer: any DispatchSourceTimer

    /// The interval that `$WATCHDOG_USEC` asks this process for, if any.
    ///
    /// - Parameters:
    ///   - environment: the process's environment, or a test's.
    ///   - processID: this process's id. When `$WATCHDOG_PID` is set and names another process
    ///     (a child that inherited its parent's environment), the watchdog is not ours to feed.
    /// - Returns: `nil` when the watchdog is off, meant for another process, or the value is not a
    ///   positive number of microseconds.
    static func interval(in environment: [String: String], processID: pid_t = getpid()) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else {
            return nil
        }
        if let owner = environment["WATCHDOG_PID"], !owner.isEmpty, pid_t(owner) != processID { return nil }
        return .microseconds(microseconds)
    }

    /// Starts pinging: `ping` runs on the main queue every half `interval`, the first time half an
    /// interval from now.
    ///
    /// - Parameters:
    ///   - interval: systemd's watchdog interval.
    ///   - ping: sends `WATCHDOG=1`; runs on the main queue.
    init(interval: Duration, ping: @escaping @Sendable () -> Void) {
        self.interval = interval
        let (seconds, attoseconds) = (interval / 2).components
        let nanoseconds = Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let period = DispatchTimeInterval.nanoseconds(nanoseconds)
        // A tenth of the period of leeway: room for the kernel to batch wake-ups, far from the deadline.
        let leeway = DispatchTimeInterval.nanoseconds(nanoseconds / 10)
        timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + period, repeating: period, leeway: leeway)
        timer.setEventHandler(handler: ping)
        timer.resume()
    }

    deinit {
        timer.cancel()
    }
}
