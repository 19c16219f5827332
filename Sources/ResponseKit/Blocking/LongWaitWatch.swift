import Dispatch

/// Reports the blocking waits that last longer than ``ResponseDiagnostics/longWaitThreshold``, so
/// that a wait with no deadline, outside the main thread and outside any task, can sleep with no
/// timer of its own.
///
/// Why: a timed sleep makes the kernel set and cancel a timer on every wait, about a tenth of a
/// cross-thread round trip (W4's runs: Benchmarks/README.md, "Measurements behind the engine's
/// comments"). The watch keeps the waits in progress and one timer,
/// set for the earliest report due; a wait costs two short critical sections instead.
enum LongWaitWatch {
    private struct Watched {
        /// When the wait passes the threshold, in uptime nanoseconds.
        let due: UInt64
        let subject: any LongWaitSubject
    }

    private struct State {
        var watched: [UInt64: Watched] = [:]
        var nextTicket: UInt64 = 0
        /// When the earliest timer in flight fires; `nil` when none is.
        var timerDue: UInt64?
    }

    private static let state = LockedBox.make(State())
    private static let queue = DispatchQueue(label: "ResponseKit.LongWaitWatch")

    /// Watches a wait on `subject` whose report is due at `due` (uptime nanoseconds); the ticket
    /// ends the watch (``unwatch(_:)``).
    static func watch(_ subject: any LongWaitSubject, due: UInt64) -> UInt64 {
        let (ticket, setsTimer) = state.withLock { state -> (UInt64, Bool) in
            let ticket = state.nextTicket
            state.nextTicket &+= 1
            state.watched[ticket] = Watched(due: due, subject: subject)
            if let timerDue = state.timerDue, timerDue <= due { return (ticket, false) }
            state.timerDue = due
            return (ticket, true)
        }
        if setsTimer { setTimer(at: due) }
        return ticket
    }

    /// Ends a watch: the wait is over. A wait already reported has left the watch.
    static func unwatch(_ ticket: UInt64) {
        // Returned out of the lock, so the entry (which holds the response) is released after it.
        _ = state.withLock { $0.watched.removeValue(forKey: ticket) }
    }

    private static func setTimer(at due: UInt64) {
        queue.asyncAfter(deadline: .saturating(uptimeNanoseconds: due)) { fire() }
    }

    /// A timer fired: reports every wait now due (each once, as it leaves the watch), then sets
    /// the timer for the next, unless one already in flight comes first.
    ///
    /// One wait at a time, each taken out of the watch just before its report: a report calls
    /// the diagnostics handler, user code that may take its time, and a wait that ends meanwhile
    /// has ended before its own report, so it must not be reported.
    private static func fire() {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (due, next) = state.withLock { state -> ((any LongWaitSubject)?, UInt64?) in
                if let ticket = state.watched.first(where: { $0.value.due <= now })?.key {
                    return (state.watched.removeValue(forKey: ticket)?.subject, nil)
                }
                if let timerDue = state.timerDue, timerDue > now {
                    // A timer for an earlier report is in flight already; it sets the next one.
                    return (nil, nil)
                }
                let earliest = state.watched.values.map(\.due).min()
                state.timerDue = earliest
                return (nil, earliest)
            }
            guard let due else {
                if let next { setTimer(at: next) }
                return
            }
            due.reportLongWait()
        }
    }
}

/// What ``LongWaitWatch`` watches: a response (``AnyResponse``), or a test's stand-in, which is why
/// this is a protocol of its own rather than part of ``AnyResponse``.
@usableFromInline
protocol LongWaitSubject: AnyObject, Sendable {
    /// Reports that a blocking wait on this response has lasted longer than the threshold.
    func reportLongWait()
}

extension Response {
    @usableFromInline
    func reportLongWait() {
        // Done: the wait is over (its thread is woken, and about to end the watch).
        guard !isDone else { return }
        BlockingWait.reportLongWait(on: self)
    }
}
