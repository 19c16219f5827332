import ResponseKit

/// A decorator that checks what goes in and what comes out of the use case it wraps.
///
/// - In: credentials that cannot be right (``Credentials/validate()``) fail at once; the wrapped
///   use case, and so the network, is never asked.
/// - Out: a user whose email is not the one that signed in fails with
///   ``AuthenticationError/unexpectedUser``: never show someone else's account.
///
/// Built on `Response.validate`, so both checks read as one chain.
public nonisolated struct ValidatingAuthentication: AuthenticationUseCase {
    private let decorated: any AuthenticationUseCase

    /// Wraps `decorated`.
    ///
    /// - Parameter decorated: the use case to check around.
    public init(decorating decorated: any AuthenticationUseCase) {
        self.decorated = decorated
    }

    /// Checks the credentials, signs in through the wrapped use case, then checks the user.
    public func authenticate(_ credentials: Credentials) -> Response<AuthenticatedUser> {
        do {
            try credentials.validate()
        } catch {
            return .failed(error)
        }
        return decorated.authenticate(credentials)
            .validate { user in
                guard user.email.lowercased() == credentials.email.lowercased() else {
                    throw AuthenticationError.unexpectedUser
                }
            }
    }
}
