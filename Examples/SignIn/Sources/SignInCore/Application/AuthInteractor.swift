import ResponseKit

/// The auth module's interactor: checks, signs in and signs out, each time answering with the
/// new ``AuthState``.
///
/// It holds no state of its own: the session lives behind the ``AuthenticationWorker``. Input
/// that cannot be right (an empty field) fails at once, without asking the worker.
///
/// ```swift
/// let interactor = AuthInteractor(worker: worker)
/// presenter.present(interactor.signIn(username: "ada", password: "secret"))
/// ```
public nonisolated struct AuthInteractor: Sendable {
    private let worker: any AuthenticationWorker

    /// Makes the interactor.
    ///
    /// - Parameter worker: the authentication service.
    public init(worker: any AuthenticationWorker) {
        self.worker = worker
    }

    /// Finds out whether someone is signed in.
    ///
    /// - Returns: ``AuthState/signedIn(_:)`` or ``AuthState/signedOut``; the worker's failure when
    ///   it cannot tell.
    public func checkStatus() -> Response<AuthState> {
        worker.currentUser().map { user in user.map(AuthState.signedIn) ?? .signedOut }
    }

    /// Signs in.
    ///
    /// - Parameters:
    ///   - username: as typed; surrounding spaces are ignored.
    ///   - password: as typed.
    /// - Returns: ``AuthState/signedIn(_:)``, or a failure: ``SignInError/missingUsername`` and
    ///   ``SignInError/missingPassword`` at once, the worker's failure otherwise.
    public func signIn(username: String, password: String) -> Response<AuthState> {
        let username = username.trimmingWhitespace()
        guard !username.isEmpty else { return .failed(SignInError.missingUsername) }
        guard !password.isEmpty else { return .failed(SignInError.missingPassword) }
        return worker.signIn(username: username, password: password).map { user in .signedIn(user) }
    }

    /// Signs out.
    ///
    /// - Returns: ``AuthState/signedOut``, or the worker's failure.
    public func signOut() -> Response<AuthState> {
        worker.signOut().map { AuthState.signedOut }
    }
}

nonisolated extension String {
    /// The string without leading and trailing whitespace.
    func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
        else {
            return ""
        }
        return String(self[start...end])
    }
}
