import Dispatch
import ResponseKit

/// Reads commands one line at a time, off the main thread, answering each read with a response.
///
/// The main thread of a callback-style example runs the main queue (so that main-actor callbacks
/// are delivered) and must never sit in `readLine()`. ``nextLine()`` therefore reads on a queue
/// of its own and returns at once: the line arrives later, like any other answer.
///
/// ```swift
/// input.nextLine().mainActor.onCompletion { line in   // on the main actor
///     if let line { handle(line) } else { quit() }
/// }
/// ```
public nonisolated final class ConsoleInput: Sendable {
    private let queue = DispatchQueue(label: "ExampleSupport.ConsoleInput")
    private let readLine: @Sendable () -> String?

    /// Makes a reader.
    ///
    /// - Parameter readLine: reads one line without its newline, `nil` at the end of the input.
    ///   Standard input by default; tests pass a script.
    public init(readLine: @escaping @Sendable () -> String? = { Swift.readLine(strippingNewline: true) }) {
        self.readLine = readLine
    }

    /// Makes a reader that answers with `lines`, then with the end of the input.
    ///
    /// - Parameter lines: the script, one command per element.
    /// - Returns: a reader for tests and for commands given as arguments.
    public static func scripted(_ lines: [String]) -> ConsoleInput {
        let remaining = Locked(lines[...])
        return ConsoleInput {
            remaining.withLock { $0.popFirst() }
        }
    }

    /// Reads the next line.
    ///
    /// - Returns: a response that succeeds with the line, without its newline, or with `nil` at
    ///   the end of the input. Reads happen one at a time, in call order.
    public func nextLine() -> Response<String?> {
        Response(on: queue, executor: .immediate) { [readLine] in
            readLine()
        }
    }
}
