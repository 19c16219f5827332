import ResponseKit

/// The authentication backend, as the use case sees it: a token endpoint and a user endpoint.
///
/// ``FakeAuthenticationBackend`` implements it in memory, with latency; ``HTTPAuthenticationAPI``
/// over HTTP, as a shipping app would.
public nonisolated protocol AuthenticationAPI: Sendable {
    /// Exchanges credentials for a token.
    ///
    /// - Parameter credentials: valid credentials.
    /// - Returns: the token, or an ``AuthenticationError``.
    func fetchToken(_ credentials: Credentials) -> Response<AuthToken>

    /// Fetches the user a token belongs to.
    ///
    /// - Parameter token: a token from ``fetchToken(_:)``.
    /// - Returns: the user, or an ``AuthenticationError``.
    func fetchUser(_ token: AuthToken) -> Response<AuthenticatedUser>
}
