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

    private struct State {
        /// Every timeout made before ``runOutForever()``, fired, cancelled or running.
        var timeouts: [Timeout] = []
        /// Set by ``runOutForever()``: every later timeout has already run out.
        var isOver = false
    }

    private let state = LockedBox.make(State())

    func timeout(after duration: Duration) -> Response<Void> {
        let (response, resolver) = Response<Void>.pending(on: .immediate)
        let isOver = state.withLock { state in
            if !state.isOver { state.timeouts.append(Timeout(duration: duration, resolver: resolver)) }
            return state.isOver
        }
        if isOver { resolver.succeed() }
        return response
    }

    /// The durations of the timeouts still running (neither fired nor cancelled), oldest first.
    var runningDurations: [Duration] {
        let all = state.withLock { $0.timeouts }
        return all.filter { !$0.resolver.response.isDone }.map(\.duration)
    }

    /// Runs out every running timeout, oldest first.
    ///
    /// - Returns: how many timeouts ran out (cancelled ones do not count).
    @discardableResult
    func fireAll() -> Int {
        let all = state.withLock { state in
            defer { state.timeouts.removeAll() }
            return state.timeouts
        }
        return all.filter { $0.resolver.succeed() }.count
    }

    /// Fails every running timeout with `error`, as a timer that breaks its contract would.
    ///
    /// - Returns: how many timeouts failed (cancelled ones do not count).
    @discardableResult
    func failAll(with error: any Error) -> Int {
        let all = state.withLock { state in
            defer { state.timeouts.removeAll() }
            return state.timeouts
        }
        return all.filter { $0.resolver.fail(error) }.count
    }

    /// Runs out every running timeout, and from now on every timeout at once: the end of a test,
    /// after which all the time in the world passes.
    ///
    /// A manager keeps a response it waits for, and the response's callbacks keep the manager: a
    /// service left hanging by a test would hold its manager in a cycle forever. Every wait of the
    /// manager is bounded by this timer, so once every timeout runs out the manager gives up on
    /// each wait (cancelling the hanging response), including the waits that giving up leads to
    /// (the next service to start or stop, which may hang too), and the cycle comes apart.
    func runOutForever() {
        state.withLock { $0.isOver = true }
        fireAll()
    }
}
