import ExampleSupport

/// The command-line view: writes a view model as two lines.
public nonisolated struct ActivationScreen: Sendable {
    private let output: ConsoleOutput

    /// Makes a screen that writes to `output`.
    ///
    /// - Parameter output: where to write.
    public init(output: ConsoleOutput) {
        self.output = output
    }

    /// Shows the outcome.
    ///
    /// - Parameter viewModel: what to show.
    public func show(_ viewModel: ActivationViewModel) {
        output.writeLine("\(viewModel.isActivated ? "✔" : "✘") \(viewModel.title)")
        output.writeLine("  \(viewModel.detail)")
    }
}
