import ResponseKit

/// What the sign-in screen binds to: the signed-in user, a message, and an error message.
///
/// The callback style: ``signIn(email:password:)`` asks the use case and returns at once; the
/// view model is `@MainActor`, so the callbacks it registers are main-actor isolated and update
/// its properties on the main queue, where a GUI would read them.
///
/// ```swift
/// let viewModel = AuthenticationViewModel(useCase: useCase)
/// viewModel.signIn(email: "ada@example.com", password: "secret")
/// // later, on the main queue: viewModel.user == "Ada Lovelace"
/// ```
@MainActor
public final class AuthenticationViewModel {
    /// The signed-in user's name; `nil` until a sign-in succeeds.
    public private(set) var user: String?
    /// What is happening, or what happened: `Signing in…`, `Welcome, Ada Lovelace.`
    public private(set) var message: String?
    /// Why the last sign-in failed; `nil` when it did not.
    public private(set) var errorMessage: String?
    /// Whether a sign-in is under way (a GUI disables the button).
    public private(set) var isSigningIn = false

    private let useCase: any AuthenticationUseCase

    /// Makes a view model with nobody signed in.
    ///
    /// - Parameter useCase: signs people in.
    public init(useCase: any AuthenticationUseCase) {
        self.useCase = useCase
    }

    /// Signs in: clears the last error, says so, and updates the properties with the outcome.
    ///
    /// - Parameters:
    ///   - email: as typed.
    ///   - password: as typed.
    /// - Returns: a response that succeeds once the properties show the outcome, whatever it is:
    ///   the command line blocks on it, tests await it.
    @discardableResult
    public func signIn(email: String, password: String) -> Response<Void> {
        let (shown, resolver) = Response<Void>.pending(on: .immediate)
        isSigningIn = true
        errorMessage = nil
        message = "Signing in…"
        useCase.authenticate(Credentials(email: email, password: password))
            .mainActor.onCompletion { user in
                self.isSigningIn = false
                self.user = user.name
                self.message = "Welcome, \(user.name)."
                resolver.succeed()
            }
            .onFailure { error in
                self.isSigningIn = false
                self.message = nil
                self.errorMessage = Self.message(for: error)
                resolver.succeed()
            }
        return shown
    }

    /// Words for `error`.
    nonisolated static func message(for error: any Error) -> String {
        switch error {
        case let error as AuthenticationError: error.description
        case is CancellationError: "Sign-in cancelled."
        default: "Something went wrong: \(error)"
        }
    }
}
