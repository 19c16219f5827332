import ResponseKit

/// A decorator that gives up on the use case it wraps after a time limit, cancelling its work.
///
/// Built on `Response.timeout(after:scheduler:)`; time comes from the injected scheduler, so
/// tests move it by hand.
public nonisolated struct TimingOutAuthentication: AuthenticationUseCase {
    private let decorated: any AuthenticationUseCase
    private let limit: Duration
    private let scheduler: any ResponseScheduler

    /// Wraps `decorated`.
    ///
    /// - Parameters:
    ///   - decorated: the use case to time.
    ///   - limit: how long it may take.
    ///   - scheduler: the source of time; `ManualScheduler` in tests.
    public init(
        decorating decorated: any AuthenticationUseCase, limit: Duration,
        scheduler: any ResponseScheduler = DispatchScheduler()
    ) {
        self.decorated = decorated
        self.limit = limit
        self.scheduler = scheduler
    }

    /// Signs in through the wrapped use case, or fails with ``AuthenticationError/timedOut``.
    public func authenticate(_ credentials: Credentials) -> Response<AuthenticatedUser> {
        decorated.authenticate(credentials)
            .timeout(after: limit, scheduler: scheduler)
            .mapError { error in (error as? ResponseError) == .deadlineExceeded ? AuthenticationError.timedOut : error }
    }
}
