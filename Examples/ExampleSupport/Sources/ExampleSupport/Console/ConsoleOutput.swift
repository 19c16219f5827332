#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an example's command-line views write their text.
///
/// ``standardOutput`` writes each piece with one unbuffered `write(2)`, so text never waits in a
/// buffer behind a prompt, and lines from the main thread and from a waiting spinner keep their
/// order. Tests pass ``init(_:)`` a closure that records what was written instead.
///
/// ```swift
/// let output = ConsoleOutput.standardOutput
/// output.writeLine("Signed in as Ada")
/// output.write("> ")   // a prompt: no newline
/// ```
public nonisolated struct ConsoleOutput: Sendable {
    private let sink: @Sendable (String) -> Void

    /// Makes an output that hands every piece of text to `sink`, as written.
    ///
    /// - Parameter sink: receives the text; ``writeLine(_:)`` passes it with a trailing newline.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Standard output, unbuffered.
    public static let standardOutput = ConsoleOutput { text in FileDescriptor.write(text, to: 1) }

    /// Standard error, unbuffered: for usage messages and diagnostics that must not mix with results.
    public static let standardError = ConsoleOutput { text in FileDescriptor.write(text, to: 2) }

    /// Writes `text` as it is, with no newline: a prompt, or a spinner frame after `\r`.
    ///
    /// - Parameter text: the text.
    public func write(_ text: String) {
        sink(text)
    }

    /// Writes `line` followed by a newline.
    ///
    /// - Parameter line: one line of text, without its newline.
    public func writeLine(_ line: String) {
        sink(line + "\n")
    }
}
