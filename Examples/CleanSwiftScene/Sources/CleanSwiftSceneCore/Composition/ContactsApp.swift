import ExampleSupport
import ResponseKit

/// The composition root of the `CleanSwiftScene` executable: the "list contacts" scene on an
/// in-memory store, a navigator, and a command loop that talks to the scene on top.
@MainActor
public final class ContactsApp {
    /// The scene stack, for tests to look into.
    public let navigator = SceneNavigator()
    private let worker: ContactsWorker
    private let output: ConsoleOutput
    private var loop: CommandLoop?

    /// Called once, when the input ends or after `quit`.
    public var onFinish: () -> Void = {}

    /// Wires the app.
    ///
    /// - Parameters:
    ///   - store: where contacts are kept.
    ///   - input: where commands come from.
    ///   - output: where scenes print.
    ///   - isInteractive: whether a person types the commands (prompts) or they are piped (echoed).
    public init(
        store: any ContactsStore = InMemoryContactsStore(),
        input: ConsoleInput,
        output: ConsoleOutput,
        isInteractive: Bool = Terminal.isStandardInputInteractive
    ) {
        worker = ContactsWorker(store: store)
        self.output = output
        loop = CommandLoop(input: input, output: output, isInteractive: isInteractive) { [weak self] line in
            self?.handle(line) ?? .succeeded(.quit, on: .immediate)
        }
    }

    /// Shows the first scene, then reads commands.
    ///
    /// - Returns: a response that finishes once the first scene is displayed.
    @discardableResult
    public func start() -> Response<Void> {
        let shown = navigator.push(
            ListContactsConfigurator.makeScene(worker: worker, navigator: navigator, output: output))
        shown.mainActor.onCompletion { _ in
            self.loop?.onFinish = { [weak self] in self?.onFinish() }
            self.loop?.start()
        }
        return shown
    }

    /// Runs one command line on the scene on top.
    ///
    /// - Parameter line: what was typed, not empty.
    /// - Returns: a response that finishes once the outcome is shown.
    public func handle(_ line: String) -> Response<CommandLoop.Step> {
        let command = TypedCommand(line)
        if let shown = navigator.top?.handle(command) { return shown.map { .next } }
        switch command.name {
        case "back":
            if !navigator.pop() {
                output.writeLine("Already at the first screen.")
            } else if let top = navigator.top {
                return top.sceneDidAppear().map { .next }
            }
        case "help":
            let help =
                (navigator.top?.commandHelp ?? []) + [
                    "back                           return to the previous screen",
                    "help                           this list",
                    "quit                           leave",
                ]
            output.writeLine(withoutRepeatedCommands(help).joined(separator: "\n"))
        case "quit", "exit":
            return .succeeded(.quit, on: .immediate)
        default:
            return CommandLoop.Step.unknown(command, output: output)
        }
        return .succeeded(.next, on: .immediate)
    }
}

/// The help lines in order, each command once (the first line for it wins).
private func withoutRepeatedCommands(_ lines: [String]) -> [String] {
    var seen = Set<String>()
    return lines.filter { line in seen.insert(String(line.prefix(while: { $0 != " " }))).inserted }
}
