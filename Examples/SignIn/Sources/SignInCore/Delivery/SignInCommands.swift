import ExampleSupport
import ResponseKit

/// The auth module's commands at the command line: each stands for a button of the screen.
///
/// A command for a button that is not shown (`signout` when signed out) is refused with a message
/// naming the buttons that are, as a GUI would not let it be pressed.
@MainActor
public final class SignInCommands {
    /// One line per command, for `help`.
    public static let help = [
        "signin <username> <password>   sign in (try ada / secret)",
        "signout                        sign out",
        "status                         check who is signed in (the retry button)",
    ]

    private let controller: AuthController
    private let view: AuthConsoleView
    private let output: ConsoleOutput

    /// Makes the commands.
    ///
    /// - Parameters:
    ///   - controller: what the buttons do.
    ///   - view: the screen, asked which buttons are shown.
    ///   - output: where refusals are printed.
    public init(controller: AuthController, view: AuthConsoleView, output: ConsoleOutput) {
        self.controller = controller
        self.view = view
        self.output = output
    }

    /// Runs `command` if it is one of the auth module's.
    ///
    /// - Parameter command: what was typed.
    /// - Returns: a response that finishes once the outcome is shown, or `nil` when `command` is
    ///   not an auth command, for the caller to try elsewhere.
    public func handle(_ command: TypedCommand) -> Response<Void>? {
        switch command.name {
        case "signin":
            guard allows(.signIn) else { return .succeeded((), on: .immediate) }
            let username = command.arguments.first ?? ""
            let password = command.arguments.dropFirst().joined(separator: " ")
            return controller.signIn(username: username, password: password)
        case "signout":
            guard allows(.signOut) else { return .succeeded((), on: .immediate) }
            return controller.signOut()
        case "status", "retry":
            return controller.refresh()
        default:
            return nil
        }
    }

    private func allows(_ button: AuthViewModel.Button) -> Bool {
        if view.isShowing(button) { return true }
        let shown = view.shown?.buttons.map { "[\($0)]" }.joined(separator: " ") ?? ""
        output.writeLine("'\(button)' is not available now (\(view.shown?.status ?? "")); available: \(shown)")
        return false
    }
}
