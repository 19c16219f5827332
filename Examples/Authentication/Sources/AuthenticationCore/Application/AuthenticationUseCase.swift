import ResponseKit

/// Signs someone in: the abstraction the view model depends on.
///
/// Implementations are composed like Russian dolls: ``RemoteAuthentication`` does the work, and
/// decorators (``ValidatingAuthentication``, ``InterceptingAuthentication``,
/// ``TimingOutAuthentication``) wrap it, each adding one concern without the others knowing.
///
/// ```swift
/// let useCase: any AuthenticationUseCase = RemoteAuthentication(api: api, tokenStore: store)
///     .timingOut(after: .seconds(5))
///     .validating()
///     .intercepting { user in audit.record(user) }
/// ```
public nonisolated protocol AuthenticationUseCase: Sendable {
    /// Signs in with `credentials`.
    ///
    /// - Parameter credentials: as typed.
    /// - Returns: a response, returned at once, that succeeds with the signed-in user or fails
    ///   with an ``AuthenticationError``.
    func authenticate(_ credentials: Credentials) -> Response<AuthenticatedUser>
}
