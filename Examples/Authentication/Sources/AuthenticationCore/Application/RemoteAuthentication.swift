import ResponseKit

/// The use case's core: fetches a token, stores it, then fetches the user it belongs to.
///
/// It checks nothing and adds nothing; the decorators do that. Each step starts when the one
/// before succeeded; a failure at any step fails the whole, and nothing after it runs (a token
/// that was refused is never stored).
public nonisolated struct RemoteAuthentication: AuthenticationUseCase {
    private let api: any AuthenticationAPI
    private let tokenStore: any TokenStore

    /// Makes the use case.
    ///
    /// - Parameters:
    ///   - api: the backend.
    ///   - tokenStore: where the token is kept.
    public init(api: any AuthenticationAPI, tokenStore: any TokenStore) {
        self.api = api
        self.tokenStore = tokenStore
    }

    /// Fetches a token, stores it, then fetches the user.
    public func authenticate(_ credentials: Credentials) -> Response<AuthenticatedUser> {
        let api = api
        let tokenStore = tokenStore
        return api.fetchToken(credentials)
            .map { token in
                do {
                    try tokenStore.save(token)
                } catch {
                    throw AuthenticationError.tokenNotStored("\(error)")
                }
                return token
            }
            .flatMap { token in api.fetchUser(token) }
    }
}
