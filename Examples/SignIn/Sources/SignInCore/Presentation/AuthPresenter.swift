import ResponseKit

/// Turns the interactor's answers into ``AuthViewModel``s for the ``AuthView``.
///
/// It remembers the last ``AuthState`` it presented, so that an error keeps the buttons that fit
/// the state the app is still in, and shows the error message beside them: an error is never
/// swallowed, and never loses the state.
///
/// The callback style: ``present(_:)`` registers callbacks on the response and returns at once.
/// The presenter is `@MainActor`, so those callbacks are main-actor isolated and update its state
/// and the view directly, on the main queue.
///
/// ```swift
/// presenter.present(interactor.signIn(username: "ada", password: "secret"))
/// ```
@MainActor
public final class AuthPresenter {
    /// The screen; weak, because the screen owns what it shows.
    public weak var view: (any AuthView)?
    /// The state last presented; ``AuthState/unknown`` until the first answer.
    public private(set) var state = AuthState.unknown

    /// Makes a presenter with nothing presented yet.
    public init() {}

    /// Shows the outcome of `response` once it is done.
    ///
    /// - Parameter response: an answer of ``AuthInteractor``.
    /// - Returns: a response that succeeds once the view has been updated, whatever the outcome:
    ///   the command-line loop waits for it before reading the next command, and tests block on it.
    @discardableResult
    public func present(_ response: Response<AuthState>) -> Response<Void> {
        let (shown, resolver) = Response<Void>.pending(on: .immediate)
        response
            .mainActor.onCompletion { state in
                self.state = state
                self.view?.display(Self.viewModel(for: state))
                resolver.succeed()
            }
            .onFailure { error in
                self.view?.display(Self.viewModel(for: self.state, error: error))
                resolver.succeed()
            }
        return shown
    }

    /// The view model for `state`, with `error` shown when there is one.
    ///
    /// - Parameters:
    ///   - state: what the app knows about the session.
    ///   - error: the failure of the last request, if it failed.
    /// - Returns: the status line, the buttons and the error message.
    public nonisolated static func viewModel(for state: AuthState, error: (any Error)? = nil) -> AuthViewModel {
        let errorMessage = error.map(message(for:))
        switch state {
        case .signedIn(let user):
            return AuthViewModel(status: "Signed in as \(user.name)", buttons: [.signOut], errorMessage: errorMessage)
        case .signedOut:
            return AuthViewModel(status: "Signed out", buttons: [.signIn], errorMessage: errorMessage)
        case .unknown:
            return AuthViewModel(
                status: "Not sure whether you are signed in", buttons: [.retry, .signIn], errorMessage: errorMessage)
        }
    }

    /// Words for `error`: our own errors say what to do; anything else is shown as it is.
    nonisolated static func message(for error: any Error) -> String {
        switch error {
        case let error as SignInError: error.description
        case is CancellationError: "The request was cancelled."
        default: "Something went wrong: \(error)"
        }
    }
}
