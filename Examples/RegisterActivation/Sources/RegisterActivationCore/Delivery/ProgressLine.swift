import ExampleSupport

/// The line that shows the cashier that something is happening while the server is asked.
///
/// On a terminal it is a spinner redrawn in place (`\r`) with the time waited so far, erased when
/// the answer comes. In a pipe or a log, where `\r` would leave debris, it is one plain line.
public nonisolated struct ProgressLine: Sendable {
    private static let frames: [Character] = ["|", "/", "-", "\\"]
    private let output: ConsoleOutput
    private let message: String
    private let isTerminal: Bool

    /// Makes a progress line; nothing is written before ``begin()``.
    ///
    /// - Parameters:
    ///   - message: what is happening, such as `Activating register 2 of Corner Shop`.
    ///   - output: where to draw.
    ///   - isTerminal: whether `output` can redraw a line in place.
    public init(message: String, output: ConsoleOutput, isTerminal: Bool) {
        self.message = message
        self.output = output
        self.isTerminal = isTerminal
    }

    /// Shows the line before the first wait.
    public func begin() {
        if isTerminal {
            output.write("\(Self.frames[0]) \(message)…")
        } else {
            output.writeLine("\(message)… (waiting for the server)")
        }
    }

    /// Redraws the spinner: its next frame and the time waited so far.
    ///
    /// - Parameters:
    ///   - frame: which frame to draw; the slice count of ``BlockingWait`` turns the spinner.
    ///   - waited: how long the wait has lasted.
    public func tick(frame: Int, waited: Duration) {
        guard isTerminal else { return }
        output.write("\r\(Self.frames[frame % Self.frames.count]) \(message)… \(waited.formattedSeconds)")
    }

    /// Erases the spinner, so the answer starts on a clean line.
    public func end() {
        if isTerminal { output.write("\r\u{1B}[K") }
    }
}
