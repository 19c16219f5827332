import Foundation
import ResponseKit

/// Runs an example's commands one at a time: reads a line, hands it to the app, waits for the
/// app's answer, reads the next.
///
/// The loop is the delivery mechanism's event loop for callback-style examples. It never blocks:
/// every step is a callback on the main actor, so the main queue stays free for the presenters.
/// A command's response finishes once the command's output has been shown, so output and prompts
/// never interleave, even when commands are piped in faster than they are answered.
///
/// ```swift
/// let loop = CommandLoop(input: ConsoleInput(), output: .standardOutput) { line in
///     controller.handle(line)          // Response<CommandLoop.Step>
/// }
/// loop.onFinish = { exit(0) }
/// loop.start()
/// ```
///
/// When standard input is not a terminal the loop prints no prompt and echoes each command as
/// `> command` instead, so a transcript of a piped run reads like an interactive session.
///
/// ## Threading
/// `@MainActor`: create, start and finish it on the main actor. The main queue must be serviced
/// (by `ServiceRunner`, or by ``MainRunLoop/run()``).
@MainActor
public final class CommandLoop {
    /// What the loop does after a command.
    public enum Step: Sendable {
        /// Reads the next command.
        case next
        /// Stops reading and calls ``CommandLoop/onFinish``.
        case quit
    }

    private let input: ConsoleInput
    private let output: ConsoleOutput
    private let prompt: String
    private let isInteractive: Bool
    private let handle: (String) -> Response<Step>
    private var isStarted = false
    /// Whether a command was handed over and its response has not finished yet.
    private var isCommandInFlight = false
    /// The responses of ``finish()`` calls waiting for the command in flight.
    private var waitingForCommand: [Resolver<Void>] = []
    /// Whether the loop has stopped: at the end of the input, after `quit`, or after ``finish()``.
    public private(set) var isFinished = false

    /// Called once when the loop stops reading.
    public var onFinish: () -> Void = {}

    /// Makes a loop; nothing is read before ``start()``.
    ///
    /// - Parameters:
    ///   - input: where commands come from.
    ///   - output: where prompts, echoed commands and unexpected failures go.
    ///   - prompt: shown before each read when a person is typing.
    ///   - isInteractive: whether a person is typing; by default, whether standard input is a terminal.
    ///   - handle: runs one non-empty, trimmed command; its response finishes once the command's
    ///     output has been shown. A failure is printed as `error: ...` and the loop goes on.
    public init(
        input: ConsoleInput,
        output: ConsoleOutput,
        prompt: String = "> ",
        isInteractive: Bool = Terminal.isStandardInputInteractive,
        handle: @escaping (String) -> Response<Step>
    ) {
        self.input = input
        self.output = output
        self.prompt = prompt
        self.isInteractive = isInteractive
        self.handle = handle
    }

    /// Starts reading commands. Calling it again does nothing.
    public func start() {
        guard !isStarted else { return }
        isStarted = true
        readNext()
    }

    /// Stops the loop: no further command runs, and ``onFinish`` is called unless it already was.
    ///
    /// A command already handed over is not interrupted: a graceful shutdown waits for the
    /// returned response, so that a command that was saving finishes (and says so) before the
    /// process ends, instead of being cut off in the middle of a write.
    ///
    /// ```swift
    /// func stop() -> Response<Void> {      // a service's stop
    ///     loop.finish()                    // the app stops once the command in flight is shown
    /// }
    /// ```
    ///
    /// - Returns: a response that succeeds once no command is in flight: at once when none is,
    ///   otherwise when the command's response finishes (succeeded or failed). It never fails.
    @discardableResult
    public func finish() -> Response<Void> {
        if !isFinished {
            isFinished = true
            onFinish()
        }
        guard isCommandInFlight else { return .succeeded((), on: .immediate) }
        let (idle, resolver) = Response<Void>.pending(on: .immediate)
        waitingForCommand.append(resolver)
        return idle
    }

    private func readNext() {
        guard !isFinished else { return }
        if isInteractive { output.write(prompt) }
        input.nextLine().mainActor
            .onCompletion { line in self.received(line) }
            .onFailure { error in
                self.output.writeLine("error: could not read the next command: \(error)")
                self.finish()
            }
    }

    private func received(_ line: String?) {
        guard !isFinished else { return }
        guard let line else {
            if isInteractive { output.writeLine("") }  // end the prompt's line after Ctrl-D
            finish()
            return
        }
        let command = line.trimmingCharacters(in: .whitespaces)
        guard !command.isEmpty else { return readNext() }
        isCommandInFlight = true  // before the echo, which a shutdown may follow at once
        if !isInteractive { output.writeLine("\(prompt)\(InputEcho.display(command))") }
        handle(command).mainActor
            .onCompletion { step in
                self.commandFinished()
                if step == .quit { self.finish() } else { self.readNext() }
            }
            .onFailure { error in
                self.output.writeLine("error: \(error)")
                self.commandFinished()
                self.readNext()
            }
    }

    /// The command in flight is shown: tells whoever waits for it in ``finish()``.
    private func commandFinished() {
        isCommandInFlight = false
        let waiting = waitingForCommand
        waitingForCommand = []
        for resolver in waiting { resolver.succeed() }
    }
}

extension CommandLoop.Step {
    /// The answer every example app gives to a command it does not know: it names the command
    /// and points to `help`, then reads the next one.
    ///
    /// - Parameters:
    ///   - command: the unknown command.
    ///   - output: where to say so.
    /// - Returns: a done response: read the next command.
    @MainActor
    public static func unknown(_ command: TypedCommand, output: ConsoleOutput) -> Response<CommandLoop.Step> {
        output.writeLine("Unknown command '\(InputEcho.display(command.name))'. Type 'help' for the commands.")
        return .succeeded(.next, on: .immediate)
    }

    /// The commands every example app answers alike: `help` lists `help` (the app's lines, then
    /// `help` and `quit`), `quit` and `exit` stop, and anything else is ``unknown(_:output:)``.
    ///
    /// - Parameters:
    ///   - command: a command the app's own screens did not handle.
    ///   - help: the app's own help lines.
    ///   - output: where to answer.
    /// - Returns: a done response saying whether to read on or stop.
    @MainActor
    public static func shared(
        _ command: TypedCommand,
        help: [String],
        output: ConsoleOutput
    ) -> Response<CommandLoop.Step> {
        switch command.name {
        case "help":
            let lines = help + ["help                           this list", "quit                           leave"]
            output.writeLine(lines.joined(separator: "\n"))
            return .succeeded(.next, on: .immediate)
        case "quit", "exit":
            return .succeeded(.quit, on: .immediate)
        default:
            return unknown(command, output: output)
        }
    }
}
