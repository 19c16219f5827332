import AuthenticationCore
import ResponseKit
import SignInCore

/// The sign-in module's ``SignInCore/AuthenticationWorker``, built on the authentication
/// example's decorated ``AuthenticationCore/AuthenticationUseCase``: two examples composed,
/// neither knowing the other.
///
/// - Sign in: a username without `@` means the sample domain (`ada` is `ada@example.com`); the
///   use case validates, fetches a token, stores it in a 0600 file, and fetches the user.
/// - Who is signed in: the stored token is checked with the backend, so the session survives
///   restarts; a token the backend refuses is deleted, and nobody is signed in.
/// - Sign out: the token file is deleted.
public nonisolated struct AuthenticationUseCaseWorker: AuthenticationWorker {
    private let useCase: any AuthenticationUseCase
    private let api: any AuthenticationAPI
    private let tokenStore: any TokenStore

    /// Makes the adapter.
    ///
    /// - Parameters:
    ///   - useCase: signs people in.
    ///   - api: the backend, asked who a stored token belongs to.
    ///   - tokenStore: where the use case keeps the token.
    public init(useCase: any AuthenticationUseCase, api: any AuthenticationAPI, tokenStore: any TokenStore) {
        self.useCase = useCase
        self.api = api
        self.tokenStore = tokenStore
    }

    /// The owner of the stored token, or `nil` when there is none or the backend refuses it.
    public func currentUser() -> Response<User?> {
        let token: AuthToken?
        do {
            token = try tokenStore.load()
        } catch {
            return .failed(error)
        }
        guard let token else { return .succeeded(nil) }
        let tokenStore = tokenStore
        return api.fetchUser(token)
            .map { user -> User? in User(name: user.name) }
            .recover { error in
                guard (error as? AuthenticationError) == .server(status: 401) else { throw error }
                try tokenStore.delete()  // a refused token is of no use; forget it
                return nil
            }
    }

    /// Signs in through the use case; its errors are the sign-in module's where they mean the same.
    public func signIn(username: String, password: String) -> Response<User> {
        let email = username.contains("@") ? username : "\(username)@example.com"
        return useCase.authenticate(Credentials(email: email, password: password))
            .map { user in User(name: user.name) }
            .mapError { error in
                switch error as? AuthenticationError {
                case .wrongCredentials: SignInError.wrongCredentials
                case .server, .timedOut: SignInError.serviceUnavailable
                default: error
                }
            }
    }

    /// Deletes the stored token.
    public func signOut() -> Response<Void> {
        do {
            try tokenStore.delete()
            return .succeeded(())
        } catch {
            return .failed(error)
        }
    }
}
