import ResponseKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where one ``ChildProcess`` is, and the only code that changes it: each transition says what
/// to do next (which signal to send, which timer to cancel, whom to tell), already recorded.
///
/// A signal is sent only while the child has not been reaped: until then its process id cannot
/// be given to another process. ``ChildProcess`` therefore sends the signal a transition returns
/// *under its lock*, which the reaper also takes before it reaps.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct ChildProcessState: Sendable {
    /// Where the child is.
    enum Phase: Sendable {
        /// Running (or exited, not yet noticed); `waiting` want its termination.
        case running(Ending, waiting: [Resolver<ChildProcess.Termination>])
        /// Exited and noticed, not yet reaped: no more signals; `waiting` want its termination.
        case reaping(waiting: [Resolver<ChildProcess.Termination>])
        /// Reaped: its process id may belong to another process now.
        case exited(Result<ChildProcess.Termination, ChildProcessError>)
    }

    /// How far ending a running child has gone.
    enum Ending: Sendable {
        /// Nobody asked it to end.
        case notAsked
        /// Sent SIGTERM; `killTimer` (`nil` until armed) sends SIGKILL after the grace period.
        case terminating(killTimer: ScheduledJob?)
        /// Sent SIGKILL.
        case killing
    }

    private(set) var phase = Phase.running(.notAsked, waiting: [])

    /// Someone wants the termination.
    ///
    /// - Returns: the termination, when the child has been reaped; otherwise `nil`, and
    ///   `resolver` is told later.
    mutating func terminationRequested(
        _ resolver: Resolver<ChildProcess.Termination>
    ) -> Result<ChildProcess.Termination, ChildProcessError>? {
        switch phase {
        case .running(let ending, var waiting):
            waiting.append(resolver)
            phase = .running(ending, waiting: waiting)
            return nil
        case .reaping(var waiting):
            waiting.append(resolver)
            phase = .reaping(waiting: waiting)
            return nil
        case .exited(let result):
            return result
        }
    }

    /// Someone wants `signal` sent.
    ///
    /// - Returns: `signal` while the child may still be signalled; `nil` once it exited.
    func signalRequested(_ signal: Int32) -> Int32? {
        if case .running = phase { signal } else { nil }
    }

    /// Someone asked the child to end.
    ///
    /// - Returns: SIGTERM the first time, when the caller must then arm the kill timer
    ///   (``killTimerArmed(_:)``); `nil` when ending began already or the child exited.
    mutating func endRequested() -> Int32? {
        guard case .running(.notAsked, let waiting) = phase else { return nil }
        phase = .running(.terminating(killTimer: nil), waiting: waiting)
        return SIGTERM
    }

    /// The kill timer is armed.
    ///
    /// - Returns: `nil` when kept, to be cancelled when the child exits; `timer` itself when it
    ///   must be cancelled now (the child exited meanwhile, or the timer fired already).
    mutating func killTimerArmed(_ timer: ScheduledJob) -> ScheduledJob? {
        guard case .running(.terminating(killTimer: nil), let waiting) = phase else { return timer }
        phase = .running(.terminating(killTimer: timer), waiting: waiting)
        return nil
    }

    /// The grace period after SIGTERM is over.
    ///
    /// - Returns: SIGKILL while the child runs; `nil` once it exited.
    mutating func gracePeriodEnded() -> Int32? {
        guard case .running(.terminating, let waiting) = phase else { return nil }
        phase = .running(.killing, waiting: waiting)
        return SIGKILL
    }

    /// The child exited (the reaper saw it, and has not reaped it yet): no more signals.
    ///
    /// - Returns: the kill timer to cancel, if one was armed.
    mutating func childExited() -> ScheduledJob? {
        guard case .running(let ending, let waiting) = phase else { return nil }
        phase = .reaping(waiting: waiting)
        if case .terminating(let timer) = ending { return timer }
        return nil
    }

    /// The child has been reaped, with this result.
    ///
    /// - Returns: whom to tell.
    mutating func childReaped(
        _ result: Result<ChildProcess.Termination, ChildProcessError>
    ) -> [Resolver<ChildProcess.Termination>] {
        let waiting: [Resolver<ChildProcess.Termination>]
        switch phase {
        case .running(_, let pending), .reaping(let pending): waiting = pending
        case .exited: waiting = []
        }
        phase = .exited(result)
        return waiting
    }
}
