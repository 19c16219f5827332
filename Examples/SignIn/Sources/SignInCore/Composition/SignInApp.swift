import ExampleSupport
import ResponseKit

/// The composition root of the `SignIn` executable: the auth module with a fake worker, a console
/// view, and a command loop.
///
/// ```swift
/// let app = SignInApp(input: ConsoleInput(), output: .standardOutput)
/// app.onFinish = { exit(0) }
/// app.start()
/// MainRunLoop.run()
/// ```
@MainActor
public final class SignInApp {
    /// The module, for tests to look into.
    public let module: AuthModule
    private let view: AuthConsoleView
    private let commands: SignInCommands
    private let output: ConsoleOutput
    private var loop: CommandLoop?

    /// Called once, when the input ends or after `quit`.
    public var onFinish: () -> Void = {}

    /// Wires the app.
    ///
    /// - Parameters:
    ///   - worker: the authentication service; a ``FakeAuthenticationWorker`` by default.
    ///   - input: where commands come from.
    ///   - output: where the screen prints.
    ///   - isInteractive: whether a person types the commands (prompts) or they are piped (echoed).
    public init(
        worker: any AuthenticationWorker = FakeAuthenticationWorker(),
        input: ConsoleInput,
        output: ConsoleOutput,
        isInteractive: Bool = Terminal.isStandardInputInteractive
    ) {
        view = AuthConsoleView(output: output)
        module = AuthModule(worker: worker, view: view)
        commands = SignInCommands(controller: module.controller, view: view, output: output)
        self.output = output
        loop = CommandLoop(input: input, output: output, isInteractive: isInteractive) { [weak self] line in
            self?.handle(line) ?? .succeeded(.quit, on: .immediate)
        }
    }

    /// Shows the session's status, then reads commands.
    public func start() {
        output.writeLine("Sign in / sign out. Type 'help' for the commands.")
        module.controller.refresh().mainActor.onCompletion { _ in
            self.loop?.onFinish = { [weak self] in self?.onFinish() }
            self.loop?.start()
        }
    }

    /// Runs one command line.
    ///
    /// - Parameter line: what was typed, not empty.
    /// - Returns: a response that finishes once the outcome is shown.
    public func handle(_ line: String) -> Response<CommandLoop.Step> {
        let command = TypedCommand(line)
        if let shown = commands.handle(command) { return shown.map { .next } }
        return CommandLoop.Step.shared(command, help: SignInCommands.help, output: output)
    }
}
