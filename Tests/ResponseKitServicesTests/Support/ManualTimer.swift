import ResponseKit
import ResponseKitServices

/// A ``ServiceTimer`` whose timeouts run out only when a test says so: ``fireAll()``.
///
/// A hanging service is simulated by a response that is never finished; the test fires the
/// timer when it wants the manager to give up. Nothing sleeps.
final class ManualTimer: ServiceTimer {
    private struct Timeout {
        let duration: Duration
        let resolver: Resolver<Void>
    }

    private let timeouts = LockedBox.make([Timeout]())

    func timeout(after duration: Duration) -> Response<Void> {
        let (response, resolver) = Response<Void>.pending(on: .immediate)
        timeouts.withLock { $0.append(Timeout(duration: duration, resolver: resolver)) }
        return response
    }

    /// The durations of the timeouts still running (neither fired nor cancelled), oldest first.
    var runningDurations: [Duration] {
        let all = timeouts.withLock { $0 }
        return all.filter { !$0.resolver.response.isDone }.map(\.duration)
    }

    /// Runs out every running timeout, oldest first.
    ///
    /// - Returns: how many timeouts ran out (cancelled ones do not count).
    @discardableResult
    func fireAll() -> Int {
        let all = timeouts.withLock { timeouts in
            defer { timeouts.removeAll() }
            return timeouts
        }
        return all.filter { $0.resolver.succeed() }.count
    }
}
