import ExampleSupport

/// The cities screen at the command line.
///
/// ```
/// Added Lima.
/// Your cities (2)
///   1. Paris
///   2. Lima
/// ```
@MainActor
public final class CitiesConsoleView: CitiesView {
    private let output: ConsoleOutput

    /// Makes a view that prints to `output`.
    ///
    /// - Parameter output: where to print.
    public init(output: ConsoleOutput) {
        self.output = output
    }

    /// Prints the message, the headline, and the rows indented.
    public func display(_ viewModel: CitiesViewModel) {
        if let message = viewModel.message { output.writeLine(message) }
        output.writeLine(viewModel.title)
        for row in viewModel.rows { output.writeLine("  \(row)") }
    }

    /// Prints `error: <message>`.
    public func displayError(_ message: String) {
        output.writeLine("error: \(message)")
    }
}
