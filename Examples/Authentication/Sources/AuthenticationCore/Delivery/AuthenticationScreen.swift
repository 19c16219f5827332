import ExampleSupport
import ResponseKit

/// The sign-in screen at the command line: runs one sign-in through the view model and prints
/// the view model's properties once they show the outcome.
///
/// ```
/// sign in as ada@example.com
///   user: Ada Lovelace
///   message: Welcome, Ada Lovelace.
/// ```
@MainActor
public final class AuthenticationScreen {
    private let viewModel: AuthenticationViewModel
    private let output: ConsoleOutput

    /// Makes a screen for `viewModel`.
    ///
    /// - Parameters:
    ///   - viewModel: what the screen shows.
    ///   - output: where to print.
    public init(viewModel: AuthenticationViewModel, output: ConsoleOutput) {
        self.viewModel = viewModel
        self.output = output
    }

    /// Signs in and prints the outcome.
    ///
    /// - Parameters:
    ///   - email: as typed.
    ///   - password: as typed.
    /// - Returns: a response that succeeds once the outcome is printed.
    @discardableResult
    public func signIn(email: String, password: String) -> Response<Void> {
        output.writeLine("sign in as \(email.isEmpty ? "(no email)" : InputEcho.display(email))")
        let (printed, resolver) = Response<Void>.pending(on: .immediate)
        viewModel.signIn(email: email, password: password).mainActor.onCompletion { _ in
            self.show()
            resolver.succeed()
        }
        return printed
    }

    private func show() {
        if let user = viewModel.user { output.writeLine("  user: \(user)") }
        if let message = viewModel.message { output.writeLine("  message: \(message)") }
        if let error = viewModel.errorMessage { output.writeLine("  error: \(error)") }
    }
}
