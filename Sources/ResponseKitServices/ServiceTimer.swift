import Dispatch
import ResponseKit

/// Where a ``ServiceManager`` gets its timeouts from: the one place it meets time.
///
/// A timeout is a `Response<Void>` that succeeds once the duration has passed. The manager
/// races it against a service's response and cancels it when the service answers first, so a
/// timer should stop counting when its response is cancelled (see `Resolver.onCancel(_:)`).
///
/// Apps use ``DispatchServiceTimer`` (the default, also spelled `.dispatch`). Tests inject a timer
/// whose responses they succeed by hand, so that a hanging service times out exactly when the test
/// says, and no test sleeps:
///
/// ```swift
/// final class ManualTimer: ServiceTimer {
///     private let resolvers = LockedResolvers()   // a lock-guarded [Resolver<Void>]
///     func timeout(after duration: Duration) -> Response<Void> {
///         let (response, resolver) = Response<Void>.pending(on: .immediate)
///         resolvers.append(resolver)
///         return response
///     }
///     func fireAll() { resolvers.removeAll().forEach { $0.succeed() } }
/// }
/// ```
public protocol ServiceTimer: Sendable {
    /// Makes a response that succeeds once `duration` has passed.
    ///
    /// Called on the main actor. The response may deliver its callbacks on any executor.
    ///
    /// - Parameter duration: how long to wait; zero or less means the time is already up.
    /// - Returns: a response that succeeds when the time is up, and that the caller cancels when
    ///   it no longer needs it.
    func timeout(after duration: Duration) -> Response<Void>
}

extension ServiceTimer where Self == DispatchServiceTimer {
    /// The real timer: counts on a global Dispatch queue.
    public static var dispatch: DispatchServiceTimer { DispatchServiceTimer() }
}

/// A ``ServiceTimer`` that counts real time with `DispatchQueue.asyncAfter`.
///
/// Its responses deliver callbacks inline (`ResponseExecutor.immediate`), on the queue's thread.
/// Cancelling one releases what it holds at once; the queued job then does nothing.
public struct DispatchServiceTimer: ServiceTimer {
    private let queue: DispatchQueue

    /// Makes a timer that fires on `queue`.
    ///
    /// - Parameter queue: where the timer's work item runs. A global queue by default.
    public init(queue: DispatchQueue = .global()) {
        self.queue = queue
    }

    /// Makes a response that succeeds once `duration` has passed.
    ///
    /// - Parameter duration: how long to wait.
    /// - Returns: a response that succeeds when the time is up; cancel it to stop the timer.
    public func timeout(after duration: Duration) -> Response<Void> {
        let (response, resolver) = Response<Void>.pending(on: .immediate)
        // Cancelling drops the resolver at once, so the queued job keeps nothing alive until the
        // deadline, and does nothing when it runs.
        let pending = LockedBox<Resolver<Void>?>.make(resolver)
        resolver.onCancel { pending.withLock { $0 = nil } }
        queue.asyncAfter(deadline: .now() + Self.interval(duration)) {
            let resolver = pending.withLock { resolver in
                defer { resolver = nil }
                return resolver
            }
            resolver?.succeed()
        }
        return response
    }

    /// `duration` in nanoseconds, clamped so that the deadline arithmetic cannot overflow.
    static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return .nanoseconds(0) }
        let limit: Int64 = 100 * 365 * 24 * 3600  // a century is as good as forever
        let nanoseconds = min(seconds, limit) * 1_000_000_000 + attoseconds / 1_000_000_000
        return .nanoseconds(Int(max(0, nanoseconds)))
    }
}
