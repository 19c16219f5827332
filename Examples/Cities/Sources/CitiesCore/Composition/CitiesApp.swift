import ExampleSupport
import ResponseKit

/// The composition root of the `Cities` executable: the cities module on a file, a console view,
/// and a command loop.
@MainActor
public final class CitiesApp {
    /// The module, for tests to look into.
    public let module: CitiesModule
    private let view: CitiesConsoleView
    private let commands: CitiesCommands
    private let output: ConsoleOutput
    private var loop: CommandLoop?

    /// Called once, when the input ends or after `quit`.
    public var onFinish: () -> Void = {}

    /// Wires the app.
    ///
    /// - Parameters:
    ///   - gateway: where the list is kept.
    ///   - input: where commands come from.
    ///   - output: where the screen prints.
    ///   - isInteractive: whether a person types the commands (prompts) or they are piped (echoed).
    public init(
        gateway: any CitiesGateway,
        input: ConsoleInput,
        output: ConsoleOutput,
        isInteractive: Bool = Terminal.isStandardInputInteractive
    ) {
        view = CitiesConsoleView(output: output)
        module = CitiesModule(gateway: gateway, view: view)
        commands = CitiesCommands(controller: module.controller)
        self.output = output
        loop = CommandLoop(input: input, output: output, isInteractive: isInteractive) { [weak self] line in
            self?.handle(line) ?? .succeeded(.quit, on: .immediate)
        }
    }

    /// Shows the list, then reads commands.
    public func start() {
        module.controller.showCities().mainActor.onCompletion { _ in
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
        return CommandLoop.Step.shared(command, help: CitiesCommands.help, output: output)
    }
}
