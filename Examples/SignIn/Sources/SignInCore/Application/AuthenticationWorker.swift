import ResponseKit

/// The authentication service, as the auth module sees it: a network API, a keychain, or, in this
/// example, ``FakeAuthenticationWorker``.
///
/// Every method returns a response at once and finishes it later.
public nonisolated protocol AuthenticationWorker: Sendable {
    /// Finds out who is signed in.
    ///
    /// - Returns: a response with the signed-in user, or `nil` when nobody is.
    func currentUser() -> Response<User?>

    /// Signs in.
    ///
    /// - Parameters:
    ///   - username: the username, not empty.
    ///   - password: the password, not empty.
    /// - Returns: a response with the user, or a failure such as ``SignInError/wrongCredentials``.
    func signIn(username: String, password: String) -> Response<User>

    /// Signs out whoever is signed in; succeeds when nobody was.
    ///
    /// - Returns: a response that succeeds once signed out.
    func signOut() -> Response<Void>
}
