import ResponseKit

/// What the buttons of the auth screen do: each asks the interactor and hands the answer to the
/// presenter.
///
/// Each method returns the presenter's "shown" response, which finishes once the screen shows
/// the outcome.
@MainActor
public final class AuthController {
    private let interactor: AuthInteractor
    private let presenter: AuthPresenter

    /// Makes a controller.
    ///
    /// - Parameters:
    ///   - interactor: the use cases.
    ///   - presenter: the presenter of their answers.
    public init(interactor: AuthInteractor, presenter: AuthPresenter) {
        self.interactor = interactor
        self.presenter = presenter
    }

    /// Checks the session: the screen's first request, and the retry button.
    @discardableResult
    public func refresh() -> Response<Void> {
        presenter.present(interactor.checkStatus())
    }

    /// The sign-in button.
    @discardableResult
    public func signIn(username: String, password: String) -> Response<Void> {
        presenter.present(interactor.signIn(username: username, password: password))
    }

    /// The sign-out button.
    @discardableResult
    public func signOut() -> Response<Void> {
        presenter.present(interactor.signOut())
    }
}
