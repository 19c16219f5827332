import ExampleSupport

/// The auth screen at the command line: prints each view model, and remembers the last one so
/// that commands for buttons that are not shown can be refused.
///
/// ```
/// error: Wrong username or password.
/// Signed out   [sign in]
/// ```
@MainActor
public final class AuthConsoleView: AuthView {
    private let output: ConsoleOutput
    /// What the screen shows now; `nil` before the first display.
    public private(set) var shown: AuthViewModel?

    /// Makes a view that prints to `output`.
    ///
    /// - Parameter output: where to print.
    public init(output: ConsoleOutput) {
        self.output = output
    }

    /// Prints the error, if any, then the status and the buttons.
    ///
    /// - Parameter viewModel: what to show.
    public func display(_ viewModel: AuthViewModel) {
        shown = viewModel
        if let error = viewModel.errorMessage { output.writeLine("error: \(error)") }
        let buttons = viewModel.buttons.map { "[\($0)]" }.joined(separator: " ")
        output.writeLine("\(viewModel.status)   \(buttons)")
    }

    /// Whether `button` is on screen, or nothing was shown yet (so nothing can be refused).
    ///
    /// - Parameter button: the button a command stands for.
    /// - Returns: whether the command may run.
    public func isShowing(_ button: AuthViewModel.Button) -> Bool {
        shown?.buttons.contains(button) ?? true
    }
}
