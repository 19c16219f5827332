import ResponseKit

/// A decorator that lets someone else know about each successful sign-in (an audit log,
/// analytics, a "last signed in" record) without the use case knowing who listens.
///
/// Built on `Response.intercept`: the side effect runs with the user before the response
/// succeeds, never on a failure, and cannot change the outcome.
public nonisolated struct InterceptingAuthentication: AuthenticationUseCase {
    private let decorated: any AuthenticationUseCase
    private let onAuthenticated: @Sendable (AuthenticatedUser) -> Void

    /// Wraps `decorated`.
    ///
    /// - Parameters:
    ///   - decorated: the use case to listen to.
    ///   - onAuthenticated: told about each user signed in, on a worker thread, before the
    ///     response succeeds.
    public init(
        decorating decorated: any AuthenticationUseCase,
        onAuthenticated: @escaping @Sendable (AuthenticatedUser) -> Void
    ) {
        self.decorated = decorated
        self.onAuthenticated = onAuthenticated
    }

    /// Signs in through the wrapped use case, then reports the user.
    public func authenticate(_ credentials: Credentials) -> Response<AuthenticatedUser> {
        decorated.authenticate(credentials).intercept(onAuthenticated)
    }
}
