import CitiesCore
import ExampleSupport
import ResponseKit
import SignInCore

/// The demo's commands: the sign-in module's and the cities module's, the cities only for
/// someone signed in, plus `help` and `quit`. Each command's name (never its arguments, which may
/// hold a password) is tracked as an analytics event.
@MainActor
public final class DemoCommands {
    private let signIn: SignInCommands
    private let cities: CitiesCommands
    private let session: AuthPresenter
    private let output: ConsoleOutput
    private let track: (String) -> Void

    /// Makes the commands.
    ///
    /// - Parameters:
    ///   - signIn: the sign-in module's commands.
    ///   - cities: the cities module's commands.
    ///   - session: the sign-in module's presenter, which knows who is signed in.
    ///   - output: where help and refusals are printed.
    ///   - track: records an analytics event.
    public init(
        signIn: SignInCommands,
        cities: CitiesCommands,
        session: AuthPresenter,
        output: ConsoleOutput,
        track: @escaping (String) -> Void
    ) {
        self.signIn = signIn
        self.cities = cities
        self.session = session
        self.output = output
        self.track = track
    }

    /// The help text.
    public static let help =
        (SignInCommands.help + CitiesCommands.help + [
            "help                           this list",
            "quit                           leave (so does Ctrl-C or Ctrl-D)",
        ]).joined(separator: "\n")

    /// Runs one command line.
    ///
    /// - Parameter line: what was typed, trimmed, not empty.
    /// - Returns: a response that finishes once the outcome is shown.
    public func handle(_ line: String) -> Response<CommandLoop.Step> {
        let command = TypedCommand(line)
        if let shown = signIn.handle(command) {
            track("command \(command.name)")
            return shown.map { .next }
        }
        if CitiesCommands.names.contains(command.name) {
            guard session.state.user != nil else {
                output.writeLine("Sign in first (such as: signin ada secret) to see and edit your cities.")
                return .succeeded(.next, on: .immediate)
            }
            if let shown = cities.handle(command) {
                track("command \(command.name)")
                return shown.map { .next }
            }
        }
        switch command.name {
        case "help":
            output.writeLine(Self.help)
        case "quit", "exit":
            track("command quit")
            return .succeeded(.quit, on: .immediate)
        default:
            return CommandLoop.Step.unknown(command, output: output)
        }
        return .succeeded(.next, on: .immediate)
    }
}
