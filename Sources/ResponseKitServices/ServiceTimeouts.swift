/// How long a ``ServiceManager`` waits for each service to answer before it gives up on it.
///
/// Each limit applies to one service and one step: with a stop timeout of 5 seconds and three
/// services that all hang, stopping takes 15 seconds. A service that misses its limit is reported
/// as timed out (its error is `ResponseError.deadlineExceeded`), its response is cancelled, and the
/// manager goes on with the other services.
///
/// <!-- example: fragment @MainActor -->
/// ```swift
/// let manager = ServiceManager(timeouts: ServiceTimeouts(stop: .seconds(2)))
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct ServiceTimeouts: Hashable, Sendable {
    /// How long one service may take to start. 30 seconds by default.
    public var start: Duration
    /// How long one service may take to handle one event, other than
    /// ``LifecycleEvent/didReceiveReloadRequest``. 5 seconds by default.
    public var event: Duration
    /// How long one service may take to handle ``LifecycleEvent/didReceiveReloadRequest``: reading
    /// configuration again and reopening what depends on it is closer to a start than to an
    /// event. 30 seconds by default.
    public var reload: Duration
    /// How long one service may take to stop. 5 seconds by default.
    public var stop: Duration

    /// Makes a set of timeouts.
    ///
    /// - Parameters:
    ///   - start: how long one service may take to start.
    ///   - event: how long one service may take to handle one event, other than a reload request.
    ///   - reload: how long one service may take to handle ``LifecycleEvent/didReceiveReloadRequest``.
    ///   - stop: how long one service may take to stop.
    public init(
        start: Duration = .seconds(30),
        event: Duration = .seconds(5),
        reload: Duration = .seconds(30),
        stop: Duration = .seconds(5)
    ) {
        self.start = start
        self.event = event
        self.reload = reload
        self.stop = stop
    }

    /// The limit for one service's answer to `event`: ``reload`` for a reload request, else ``event``.
    func limit(for event: LifecycleEvent) -> Duration {
        event == .didReceiveReloadRequest ? reload : self.event
    }
}
