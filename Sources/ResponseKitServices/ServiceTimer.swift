import ResponseKit

/// Where a ``ServiceManager`` gets its timeouts from: the one place it meets time.
///
/// A timeout is a `Response<Void>` that succeeds once the duration has passed. The manager
/// races it against a service's response and cancels it when the service answers first, so a
/// timer should stop counting when its response is cancelled (see `Resolver.onCancel(_:)`).
///
/// The timer ResponseKitServices ships is ``SchedulerServiceTimer``: over a `DispatchScheduler`,
/// the default, it counts real time; over a `ManualScheduler`, time moves only when a test says,
/// so that a hanging service times out exactly then, and no test sleeps. Implement the protocol
/// for a timer of your own, such as one whose timeouts a test runs out by hand:
///
/// ```swift
/// import ResponseKit
/// import ResponseKitServices
/// import Synchronization
///
/// @available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)   // Mutex
/// final class ManualTimer: ServiceTimer {
///     private let resolvers = Mutex<[Resolver<Void>]>([])
///     func timeout(after duration: Duration) -> Response<Void> {
///         let (response, resolver) = Response<Void>.pending(on: .immediate)
///         resolvers.withLock { $0.append(resolver) }
///         return response
///     }
///     func fireAll() {
///         let due = resolvers.withLock { resolvers in
///             defer { resolvers = [] }
///             return resolvers
///         }
///         for resolver in due { resolver.succeed() }
///     }
/// }
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public protocol ServiceTimer: Sendable {
    /// Makes a response that succeeds once `duration` has passed.
    ///
    /// Called on the main actor. The response may deliver its callbacks on any executor.
    ///
    /// - Parameter duration: how long to wait; zero or less means the time is already up.
    /// - Returns: a response that succeeds when the time is up, and that the caller cancels when
    ///   it no longer needs it. A response that fails (or whose resolver is dropped) is taken to
    ///   mean the time is up too, so that a broken timer cannot leave the manager waiting forever.
    func timeout(after duration: Duration) -> Response<Void>
}

/// A ``ServiceTimer`` on any `ResponseScheduler`, the engine's source of time, so that services
/// and composition (`timeout`, `delay`, `retry`) count time the same way, and tests can drive
/// both with one `ManualScheduler`.
///
/// By default it counts real time on a global Dispatch queue (`DispatchScheduler`); that is the
/// timer of a ``ServiceManager`` given none. Pass `DispatchScheduler(queue:)` for another queue.
/// Its responses deliver callbacks inline (`ResponseExecutor.immediate`), on the thread where the
/// scheduler runs its job. Cancelling one cancels the scheduled job: a `DispatchScheduler` drops
/// it at once, so nothing it holds is kept until the deadline.
///
/// <!-- example: fragment @MainActor -->
/// ```swift
/// let scheduler = ManualScheduler()
/// let manager = ServiceManager(timer: SchedulerServiceTimer(scheduler))
/// // ... a service hangs on stop ...
/// scheduler.advance(by: .seconds(5))   // its stop times out, exactly now
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct SchedulerServiceTimer: ServiceTimer {
    private let scheduler: any ResponseScheduler

    /// Makes a timer that counts on `scheduler`.
    ///
    /// - Parameter scheduler: the source of time; real time on a global Dispatch queue by default.
    public init(_ scheduler: any ResponseScheduler = DispatchScheduler()) {
        self.scheduler = scheduler
    }

    /// Makes a response that succeeds once `duration` has passed on the scheduler.
    ///
    /// - Parameter duration: how long to wait.
    /// - Returns: a response that succeeds when the time is up; cancel it to drop the scheduled job.
    public func timeout(after duration: Duration) -> Response<Void> {
        let (response, resolver) = Response<Void>.pending(on: .immediate)
        let job = scheduler.schedule(after: duration) { resolver.succeed() }
        resolver.onCancel { job.cancel() }
        return response
    }
}
