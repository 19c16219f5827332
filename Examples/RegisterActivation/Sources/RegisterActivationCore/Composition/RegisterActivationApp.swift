import ExampleSupport
import ResponseKit

/// The composition root: builds the server, the interactor and the screen, runs one activation
/// in the blocking style, and says how it went.
public nonisolated struct RegisterActivationApp: Sendable {
    /// How often the spinner is redrawn while waiting.
    public static let spinnerInterval: Duration = .milliseconds(100)

    private let output: ConsoleOutput
    private let isTerminal: Bool
    private let scheduler: any ResponseScheduler

    /// Makes the app.
    ///
    /// - Parameters:
    ///   - output: where the progress line and the outcome go.
    ///   - isTerminal: whether `output` can redraw the spinner in place.
    ///   - scheduler: the source of time for the fake server and the timeout.
    public init(output: ConsoleOutput, isTerminal: Bool, scheduler: any ResponseScheduler = DispatchScheduler()) {
        self.output = output
        self.isTerminal = isTerminal
        self.scheduler = scheduler
    }

    /// Activates the register described by `options`, waiting with a spinner.
    ///
    /// - Parameter options: the form, and the server's latency and timeout.
    /// - Returns: the exit status: 0 when the register is active, 1 otherwise.
    public func run(_ options: ActivationOptions) -> Int32 {
        let server = FakeActivationServer(latency: options.latency, scheduler: scheduler)
        let activate = ActivateRegister(gateway: server, timeout: options.timeout, scheduler: scheduler)

        let response = activate.execute(options.request)  // returns at once
        let progress = ProgressLine(
            message:
                "Activating register \(InputEcho.display(options.request.registerNumber)) of \(InputEcho.display(options.request.storeName))",
            output: output,
            isTerminal: isTerminal
        )
        let showsProgress = !response.isDone  // a form with an empty field fails at once
        if showsProgress { progress.begin() }
        let started = ContinuousClock.now
        let result = BlockingWait.result(of: response, checkingEvery: Self.spinnerInterval) { slices in
            progress.tick(frame: slices, waited: ContinuousClock.now - started)
        }
        if showsProgress { progress.end() }

        let viewModel = ActivationPresenter.viewModel(for: result)
        ActivationScreen(output: output).show(viewModel)
        return viewModel.isActivated ? 0 : 1
    }
}
