import ResponseKit

/// The registry of an app's ``Service``s: starts them, tells them about lifecycle events and
/// stops them, keeping a failing service from holding up the others.
///
/// Make one in the composition root (there is no shared instance), register every service, then
/// start it:
///
/// <!-- example: fragment @MainActor -->
/// ```swift
/// @MainActor final class AnalyticsService: Service {
///     let name = "analytics"
///     func start() -> Response<Void> { .succeeded() }   // open the log
///     func stop() -> Response<Void> { .succeeded() }    // flush it
/// }
///
/// let services = ServiceManager()
/// try services.register(AnalyticsService())
/// try services.start()
///     .onFailure { error in print("running without some services: \(error)") }
///
/// try services.send(.didEnterBackground)   // from the app delegate, or from ServiceRunner
/// services.stop()                           // when the app ends
/// ```
///
/// ## Order
/// - **Start** runs one service at a time, in registration order: a service starts once the one
///   registered before it has answered, so it may rely on it. A service registered after
///   ``start(file:line:)`` is started at once (after any service still starting).
/// - **Events** are delivered in registration order, on the main actor, to every service that is
///   running. The manager calls each service's ``Service/handle(_:)`` in turn without waiting for
///   the previous service's answer, so a slow service delays no one; the response of
///   ``send(_:file:line:)`` finishes once every service has answered or timed out.
/// - **Stop** runs one service at a time, in reverse registration order, so a service stops
///   before the services it relies on. Only services whose start succeeded are stopped.
///
/// ## Failures
/// A service whose response fails, or does not finish within its ``ServiceTimeouts``, is
/// reported by name through the failure handler as it happens and listed in the
/// ``ServiceManagerError/servicesFailed(_:file:line:)`` error of the step; the manager goes on
/// with the other services. A service that failed to start hears about no event and is not
/// stopped; a service that failed to handle an event keeps running. When the manager gives up on
/// a response it cancels it.
///
/// ## Threading
/// `ServiceManager` is `@MainActor`: create and call it on the main actor (main-actor code, or
/// top-level code in `main.swift`). The services' methods are called there, and the manager
/// continues on the main actor whatever executor the services' responses use, so the main queue
/// must be serviced: an app's run loop does it, and so does ``ServiceRunner`` in a command-line
/// process. The responses the manager returns deliver callbacks on the main queue.
///
/// Time enters only through the ``ServiceTimer`` given to ``init(timeouts:timer:onFailure:)``, so
/// tests can make a service time out without waiting.
@MainActor
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class ServiceManager {
    /// How long each service may take to start, handle an event and stop.
    public let timeouts: ServiceTimeouts
    private let timer: any ServiceTimer
    private let failureHandler: @MainActor (ServiceFailure) -> Void

    /// What the manager knows of its services and its calls: changed only through its
    /// transitions, which say what to do next.
    var state = ServiceManagerState()
    /// Runs ``advance()``'s steps one after another rather than one inside another.
    private let loop = FlatLoop()
    /// Told about each failed start, after the failure handler and before the next service
    /// starts: for ``ServiceRunner``, whose start-failure policy may shut down at once, and which
    /// tells the supervisor. Whenever the service was registered.
    var startFailureObserver: (@MainActor (ServiceFailure) -> Void)?

    /// Makes an empty manager.
    ///
    /// - Parameters:
    ///   - timeouts: how long each service may take to start, handle an event and stop.
    ///   - timer: where timeouts come from; real time by default. Tests pass a timer they fire
    ///     by hand.
    ///   - onFailure: told about every service failure as it happens, on the main actor. By
    ///     default writes one line to standard error.
    public init(
        timeouts: ServiceTimeouts = ServiceTimeouts(),
        timer: any ServiceTimer = SchedulerServiceTimer(),
        onFailure: @escaping @MainActor (ServiceFailure) -> Void = ServiceManager.writeToStandardError
    ) {
        self.timeouts = timeouts
        self.timer = timer
        self.failureHandler = onFailure
    }

    /// A manager released before it started its services (a test that builds an app and drops
    /// it): each registration's response fails as skipped, as a service the shutdown skipped
    /// does, rather than as abandoned when its resolver goes. Nothing is reported: not starting is
    /// the app's choice, not a problem. (Once started, a manager's services have all been
    /// answered, or are answered by the step that keeps the manager alive.)
    deinit {
        // Only the entries' `let`s (the deinit is not on the main actor): a registration answered
        // already keeps its answer.
        for entry in state.entries {
            entry.started.resolveIfPending(
                with: .failure(ServiceFailure.skipped(entry.name, registeredAt: entry.registrationSite))
            )
        }
    }

    /// The names of the registered services, in registration order.
    public var serviceNames: [String] {
        state.entries.map(\.name)
    }

    /// Every service start that failed or timed out so far, in registration order, whenever the
    /// service was registered; not the services skipped because stopping began. For
    /// ``ServiceRunner``'s exit status.
    var failedStarts: [ServiceFailure] {
        state.entries.compactMap { entry in
            if case .failed(let failure) = entry.status { failure } else { nil }
        }
    }

    /// The default failure handler: one line on standard error, such as
    /// `ResponseKitServices: analytics did not stop within 5.0 seconds`.
    ///
    /// - Parameter failure: the failure to write.
    public nonisolated static func writeToStandardError(_ failure: ServiceFailure) {
        StandardError.writeLine("ResponseKitServices: \(failure)")
    }

    /// Does what the state calls for, until the manager waits for an answer or has nothing left
    /// to do: starts the next waiting service, skips the waiting services once stopping began,
    /// stops the next running service, finishes the responses of ``start(file:line:)`` and
    /// ``stop(file:line:)``. Called again while it runs (a service answered at once), it returns
    /// at once and the running call goes on.
    func advance() {
        loop.run {
            while let action = state.nextAction() {
                switch action {
                case .start(let entry): startService(entry)
                case .skip(let skipped, let startCall): skipWaitingServices(skipped, thenFinish: startCall)
                case .stop(let entry): stopService(entry)
                case .finish(let call): call.finish()
                }
            }
        }
    }

    /// Reports `failure` to the failure handler.
    func report(_ failure: ServiceFailure) {
        failureHandler(failure)
    }

    /// A pending response for the caller of a step (``register(_:file:line:)``,
    /// ``start(file:line:)``, ``send(_:file:line:)``, ``stop(file:line:)``), whose failures count
    /// as observed, made at the caller's site so that diagnostics about it name the app's code.
    ///
    /// The manager reports each failure behind such a response to its failure handler itself, so
    /// a caller that drops the response, as `try services.register(service)` does, must not get
    /// a second, `unobservedFailure` report pointing inside the library. The failure counts as
    /// observed without a callback, which would wait for the response and so keep a caller's
    /// `timeout` or cancelled `map` from cancelling the step; a caller's own callbacks still get it.
    func makeStepResponse(file: StaticString, line: UInt) -> (Response<Void>, Resolver<Void>) {
        let (response, resolver) = Response<Void>.pending(file: file, line: line)
        response.countFailureAsObserved()  // reported through `report(_:)`
        return (response, resolver)
    }

    /// Waits for `response` at most `timeout`, then calls `body` on the main actor with its
    /// result, or with `ResponseError.deadlineExceeded` after cancelling it. Exactly once.
    ///
    /// `body`'s second argument says whether the manager's own limit ran out: a service whose
    /// response fails with a `deadlineExceeded` of its own (its own `timeout(after:)`) did not
    /// miss the manager's limit, and is not reported as if it had.
    ///
    /// `body` may run before this method returns, when the response is already done and
    /// delivers inline; callers do nothing after calling it.
    func awaitAnswer(
        _ response: Response<Void>,
        within timeout: Duration,
        then body: @escaping @MainActor (_ result: Result<Void, any Error>, _ missedTheLimit: Bool) -> Void
    ) {
        let deadline = timer.timeout(after: timeout)
        var isAnswered = false
        response.mainActor.onResult { result in
            guard !isAnswered else { return }
            isAnswered = true
            deadline.cancel()
            body(result, false)
        }
        // Any outcome of the timer ends the wait: one that fails (or whose resolver was dropped)
        // breaks the timer's contract, and waiting for it to succeed would hang the manager.
        deadline.mainActor.onResult { _ in
            guard !isAnswered else { return }
            isAnswered = true
            response.cancel()
            body(.failure(ResponseError.deadlineExceeded), true)
        }
    }
}
