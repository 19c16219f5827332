import ResponseKit

/// One service that did not do what it was asked: start, handle an event, or stop.
///
/// A ``ServiceManager`` hands each failure to its failure handler as it happens (by default one
/// line on standard error) and lists them in the ``ServiceManagerError/servicesFailed(_:file:line:)``
/// error of the step concerned, so that the app can tell which services are missing.
///
/// <!-- example: fragment @MainActor -->
/// ```swift
/// let manager = ServiceManager()   // and register the services
/// do {
///     try manager.start().value
/// } catch let error as ServiceManagerError {
///     for failure in error.failures { print(failure) }   // "sync did not start within 30.0 seconds"
/// }
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct ServiceFailure: Error, Sendable, CustomStringConvertible {
    /// The step a service failed at.
    public enum Step: Hashable, Sendable, CustomStringConvertible {
        /// ``Service/start()``.
        case start
        /// ``Service/handle(_:)`` for this event.
        case event(LifecycleEvent)
        /// ``Service/stop()``.
        case stop

        /// `start`, `handle willTerminate` or `stop`.
        public var description: String {
            switch self {
            case .start: "start"
            case .event(let event): "handle \(event)"
            case .stop: "stop"
            }
        }
    }

    /// The ``Service/name`` of the service that failed.
    public let serviceName: String
    /// What the service was asked to do.
    public let step: Step
    /// Why it failed: the error the service's response failed with; `ResponseError.deadlineExceeded`
    /// when it did not answer within the manager's limit (then ``timeout`` says which), or when
    /// its own response failed so; `CancellationError` when the service was never started because
    /// the manager began stopping first.
    public let error: any Error
    /// The manager's limit the service missed; `nil` when it answered, if only with a failure.
    public let timeout: Duration?
    /// Whether the service was never asked to start, because the manager began stopping first.
    ///
    /// The manager says so itself: a service whose own start fails with `CancellationError` (its
    /// async work was cancelled) did start, and failed.
    public let isSkipped: Bool
    /// Where the app registered the service, such as `App/main.swift:12`: the site of its
    /// ``ServiceManager/register(_:file:line:)`` call, so that a report leads to the app's code
    /// even when two services share a name. `nil` for a failure made with the public initializer.
    public let registrationSite: String?

    /// Makes a failure; the manager makes them, tests of a failure handler may too.
    ///
    /// A failure to ``Step/start`` with `CancellationError` is made a skipped one (``isSkipped``),
    /// as the manager makes for a service it never started.
    ///
    /// - Parameters:
    ///   - serviceName: the service's name.
    ///   - step: what the service was asked to do.
    ///   - error: why it failed.
    ///   - timeout: the limit the service missed, when it timed out.
    public init(serviceName: String, step: Step, error: any Error, timeout: Duration? = nil) {
        self.init(
            serviceName: serviceName,
            step: step,
            error: error,
            timeout: timeout,
            isSkipped: step == .start && error is CancellationError,
            registrationSite: nil
        )
    }

    /// Makes a failure that says itself whether the service was skipped, and where the service
    /// was registered: the manager's own.
    init(
        serviceName: String,
        step: Step,
        error: any Error,
        timeout: Duration?,
        isSkipped: Bool,
        registrationSite: CallSite?
    ) {
        self.serviceName = serviceName
        self.step = step
        self.error = error
        self.timeout = timeout
        self.isSkipped = isSkipped
        self.registrationSite = registrationSite?.description
    }

    /// The failure of a service the manager never started, because it began stopping first.
    static func skipped(_ serviceName: String, registeredAt site: CallSite) -> Self {
        Self(
            serviceName: serviceName,
            step: .start,
            error: CancellationError(),
            timeout: nil,
            isSkipped: true,
            registrationSite: site
        )
    }

    /// Whether the service did not answer within the manager's limit, ``timeout``. A service
    /// whose own response fails with `ResponseError.deadlineExceeded` (its own `timeout(after:)`)
    /// answered: that is a failure, not a missed limit.
    public var isTimeout: Bool {
        timeout != nil
    }

    /// A sentence naming the service, the step and the reason, such as
    /// `analytics did not stop within 5.0 seconds`.
    public var description: String {
        if isTimeout, let timeout {
            return "\(serviceName) did not \(step) within \(timeout)"
        }
        if isSkipped {
            return "\(serviceName) was not started: the manager began stopping first"
        }
        return "\(serviceName) failed to \(step): \(error)"
    }
}
