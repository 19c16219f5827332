import AuthenticationCore
import CitiesCore
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitServices
import SignInCore

/// The demo's composition root: three examples and two services in one command-line app.
///
/// - The sign-in module (from `SignInCore`) on a worker adapted from the decorated authentication
///   use case (from `AuthenticationCore`), whose token is kept in a 0600 file;
/// - the cities module (from `CitiesCore`) on a JSON file, for signed-in users;
/// - an ``AnalyticsService`` that logs commands and lifecycle events to a file;
/// - a ``ConsoleService`` that starts the command line once the app is active.
///
/// Everything is kept in ``dataDirectory`` and survives restarts: the app checks at once that it
/// can write there, and removes what saves cut short by a crash left behind. The app's life belongs to a
/// `ServiceRunner` given ``services``: `quit`, the end of the input, Ctrl-C and SIGTERM all end
/// in the same graceful shutdown (analytics flushed, exit status 0).
///
/// ```swift
/// let app = try DemoApp(dataDirectory: directory, input: ConsoleInput(), output: .standardOutput)
/// let runner = ServiceRunner(manager: app.services)
/// app.onQuit = { runner.requestShutdown() }
/// runner.run()
/// ```
@MainActor
public final class DemoApp {
    /// Where the demo keeps its files.
    public let dataDirectory: String
    /// The services, for a `ServiceRunner` to run.
    public let services: ServiceManager
    /// The analytics service.
    public let analytics: AnalyticsService
    /// The sign-in module.
    public let auth: AuthModule
    /// The cities module.
    public let cities: CitiesModule
    private let commands: DemoCommands
    private let authView: AuthConsoleView
    private let citiesView: CitiesConsoleView
    private let output: ConsoleOutput
    private let isInteractive: Bool
    private var loop: CommandLoop?
    private var isStopping = false
    /// The response of the first ``stopConsole()``, for later calls.
    private var stopped = Response<Void>.succeeded((), on: .immediate)

    /// Called once when the person is done: `quit`, or the end of the input. The composition
    /// root asks the runner for a graceful shutdown.
    public var onQuit: () -> Void = {}

    /// Wires the app; nothing runs before the services start.
    ///
    /// - Parameters:
    ///   - dataDirectory: where the cities, the session token and the analytics log are kept.
    ///   - input: where commands come from; `nil` for none: the app runs as a service
    ///     (`--serve`), its services running until a signal ends the process.
    ///   - output: where the screens print.
    ///   - isInteractive: whether a person types the commands (prompts) or they are piped (echoed).
    ///   - authServer: the authentication server's base URL (`--auth-server`), spoken to over
    ///     HTTP; `nil` for the in-process fake backend.
    ///   - latency: the fake authentication backend's latency.
    ///   - scheduler: the source of time for the backend and the sign-in timeout.
    ///   - serviceTimeouts: how long each service may take per step.
    /// - Throws: ``UnusableDataDirectory`` when `dataDirectory` cannot be created or written;
    ///   nothing has run then. (Registering the services, which a new manager never refuses,
    ///   is the only other call that throws.)
    public init(
        dataDirectory: String,
        input: ConsoleInput?,
        output: ConsoleOutput,
        isInteractive: Bool = Terminal.isStandardInputInteractive,
        authServer: URL? = nil,
        latency: FakeAuthenticationBackend.Latency = .init(),
        scheduler: any ResponseScheduler = DispatchScheduler(),
        serviceTimeouts: ServiceTimeouts = ServiceTimeouts()
    ) throws {
        self.dataDirectory = dataDirectory
        self.output = output
        self.isInteractive = isInteractive
        let citiesFile = "\(dataDirectory)/cities.json"
        let tokenFile = "\(dataDirectory)/session/token"
        do {
            try DataDirectory.prepare(dataDirectory)
            // A save cut short by `kill -9` or a power cut left its temporary file behind. Nothing
            // of this process writes yet, so these are leftovers, never a save in flight.
            try AtomicFile.removeInterruptedWrites(of: citiesFile)
            try AtomicFile.removeInterruptedWrites(of: tokenFile)
        } catch {
            throw UnusableDataDirectory(directory: dataDirectory, reason: error)
        }

        let analytics = AnalyticsService(logFile: "\(dataDirectory)/analytics.log")
        self.analytics = analytics

        let api = AuthenticationComposition.makeAPI(server: authServer, latency: latency, scheduler: scheduler)
        let tokenStore = FileTokenStore(path: tokenFile)
        let useCase = AuthenticationComposition.makeUseCase(api: api, tokenStore: tokenStore, scheduler: scheduler) {
            user in
            Task { @MainActor in analytics.track("signed in user \(user.id)") }  // intercepted on a worker thread
        }
        authView = AuthConsoleView(output: output)
        auth = AuthModule(
            worker: AuthenticationUseCaseWorker(useCase: useCase, api: api, tokenStore: tokenStore),
            view: authView
        )

        citiesView = CitiesConsoleView(output: output)
        cities = CitiesModule(gateway: FileCitiesGateway(path: citiesFile), view: citiesView)

        commands = DemoCommands(
            signIn: SignInCommands(controller: auth.controller, view: authView, output: output),
            cities: CitiesCommands(controller: cities.controller),
            session: auth.presenter,
            output: output,
            track: { analytics.track($0) }
        )

        services = ServiceManager(timeouts: serviceTimeouts)
        loop = nil
        try services.register(analytics)
        guard let input else { return }  // served: no command line
        let console = ConsoleService(
            onActive: { [weak self] in self?.startConsole() },
            onStop: { [weak self] in self?.stopConsole() ?? .succeeded((), on: .immediate) }
        )
        try services.register(console)  // last: started after analytics, stopped before it
        loop = CommandLoop(input: input, output: output, isInteractive: isInteractive) { [weak self] line in
            self?.commands.handle(line) ?? .succeeded(.quit, on: .immediate)
        }
    }

    /// Runs one command line, as the loop does.
    ///
    /// - Parameter line: what was typed, trimmed, not empty.
    /// - Returns: a response that finishes once the outcome is shown.
    public func handle(_ line: String) -> Response<CommandLoop.Step> {
        commands.handle(line)
    }

    /// Greets, shows who is signed in, then reads commands.
    ///
    /// - Returns: a response that finishes once the session's status is shown.
    @discardableResult
    public func startConsole() -> Response<Void> {
        output.writeLine("ResponseKit demo: sign in, then keep a list of cities. Type 'help' for the commands.")
        output.writeLine("Data in \(dataDirectory); quit with 'quit', Ctrl-D or Ctrl-C.")
        let shown = auth.controller.refresh()
        shown.mainActor.onCompletion { _ in
            self.loop?.onFinish = { [weak self] in
                guard let self, !isStopping else { return }
                onQuit()
            }
            self.loop?.start()
        }
        return shown
    }

    /// Stops reading commands, lets the command in flight finish (a save is never cut short),
    /// then says goodbye; the other services stop after this.
    ///
    /// - Returns: a response that succeeds once the goodbye is printed.
    @discardableResult
    public func stopConsole() -> Response<Void> {
        guard !isStopping else { return stopped }
        isStopping = true
        if isInteractive, loop?.isFinished == false { output.writeLine("") }  // after the ^C on the prompt line
        let idle = loop?.finish() ?? .succeeded((), on: .immediate)
        let (stopped, resolver) = Response<Void>.pending(on: .immediate)
        self.stopped = stopped
        idle.mainActor.onCompletion { [output, dataDirectory] _ in
            output.writeLine("Bye. Your cities and session stay in \(dataDirectory).")
            resolver.succeed()
        }
        return stopped
    }
}
