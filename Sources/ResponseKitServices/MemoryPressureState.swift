/// Whether a ``ServiceRunner`` still watches memory pressure, and when it last warned: the only
/// code that decides whether a report from the kernel (or Dispatch) becomes a
/// ``LifecycleEvent/didReceiveMemoryWarning``. Each transition says what the runner does next.
///
/// At most one warning per window: the kernel already fires a trigger at most once per window,
/// but reports queued on a busy main queue, and Dispatch's source on Apple platforms (which
/// reports each change of level), could otherwise send several in a row.
///
/// Lives on the main actor with the runner; the monitor's thread never touches it.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct MemoryPressureState {
    /// Where the watch is.
    enum Phase: Equatable {
        /// Watching; `lastWarning` is when the last warning was sent, `nil` before the first.
        case watching(lastWarning: ContinuousClock.Instant?)
        /// The runner shut down, or the kernel ended the watch: no more warnings.
        case stopped
    }

    /// What the runner does next.
    enum Action: Equatable {
        /// Send ``LifecycleEvent/didReceiveMemoryWarning`` to the running services.
        case sendWarning
        /// Stop the monitor: end its thread and close its files.
        case stopMonitor
    }

    /// The least time between two warnings.
    let window: Duration
    private(set) var phase = Phase.watching(lastWarning: nil)

    init(window: Duration) {
        self.window = window
    }

    /// The monitor reported pressure seen at `instant`.
    ///
    /// - Returns: ``Action/sendWarning`` for the first report, and for one a window or more
    ///   after the last warning; nothing for the reports in between, or once stopped.
    mutating func pressureReported(at instant: ContinuousClock.Instant) -> Action? {
        guard case .watching(let lastWarning) = phase else { return nil }
        if let lastWarning, instant - lastWarning < window { return nil }
        phase = .watching(lastWarning: instant)
        return .sendWarning
    }

    /// The runner is shutting down, or the monitor said the kernel ended the watch.
    ///
    /// - Returns: ``Action/stopMonitor`` the first time; nothing once stopped.
    mutating func stopRequested() -> Action? {
        guard phase != .stopped else { return nil }
        phase = .stopped
        return .stopMonitor
    }
}
