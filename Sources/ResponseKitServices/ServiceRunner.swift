import Dispatch
import Foundation
import ResponseKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a command-line or server process around a ``ServiceManager``: starts the services, keeps
/// the main queue running for the life of the process, and on SIGINT or SIGTERM shuts down
/// gracefully and exits.
///
/// ```swift
/// // main.swift
/// let services = ServiceManager()
/// try services.register(DatabaseService())
/// try services.register(AnalyticsService(logFile: logURL))
/// ServiceRunner(manager: services).run()   // never returns
/// ```
///
/// ## What happens
/// 1. ``run()`` watches the signals (SIGINT and SIGTERM by default); once Dispatch watches
///    them, it starts the manager, and once every service has answered its start, sends
///    ``LifecycleEvent/didFinishLaunching`` then ``LifecycleEvent/didBecomeActive``. A service
///    that fails to start is reported and the process runs without it.
/// 2. The first signal (or ``requestShutdown()``) sends ``LifecycleEvent/willTerminate``, waits
///    for every service to answer it (within ``ServiceTimeouts/event``), then stops the services
///    in reverse order (each within ``ServiceTimeouts/stop``). A service still waiting to start
///    is never started; one whose start is in flight is stopped once it has started.
/// 3. The process exits with ``cleanExitStatus`` (0) when every service handled
///    `willTerminate` and stopped without failing or timing out, otherwise with
///    ``uncleanExitStatus`` (1).
/// 4. A second signal during shutdown exits at once, with status 128 + the signal's number
///    (130 for SIGINT, 143 for SIGTERM), as a shell reports a process killed by that signal.
///
/// The runner reports what it does as lines on standard error, such as
/// `ServiceRunner: received SIGTERM; shutting down`.
///
/// ## Threading
/// Call ``run()`` from the main thread (top-level code in `main.swift`). It runs the main run
/// loop, which drains the main queue *on the main thread*. Unlike `dispatchMain()`, which on
/// Linux drains the main queue on another thread, this keeps `Thread.isMainThread` true in
/// main-actor code, and lets a blocking `Response.value` read on the main thread keep servicing
/// the main queue. Signals are received by Dispatch signal sources on the main queue, never in a
/// signal handler, so shutdown code may do anything.
///
/// - Note: The runner blocks its signals on the main thread (so that none is lost while Dispatch
///   sets up), and threads started afterwards inherit that mask. A child process inherits it too:
///   spawn children with a cleared signal mask (`posix_spawnattr_setsigmask`), or they will not
///   end on SIGTERM.
@MainActor
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class ServiceRunner {
    /// The exit status after a shutdown in which every service handled `willTerminate` and stopped.
    public static let cleanExitStatus: Int32 = 0
    /// The exit status after a shutdown in which some service failed or timed out.
    public static let uncleanExitStatus: Int32 = 1

    /// Where the runner is in the life of the process.
    enum State {
        /// Started, or starting, the services; waiting for a signal.
        case running
        /// A signal (or ``requestShutdown()``) arrived: telling and stopping the services.
        case shuttingDown
        /// The exit status is decided and handed to `exit`.
        case exited
    }

    /// The services this runner starts and stops.
    public let manager: ServiceManager
    private let signals: [Int32]
    private let log: @MainActor (String) -> Void
    private let exit: @MainActor (Int32) -> Void
    private var signalSources: [any DispatchSourceSignal] = []
    /// Signal sources that Dispatch has not yet registered; the services start at zero.
    private var unregisteredSources = 0
    private(set) var state = State.running

    /// Makes a runner for `manager`, which must not be started yet: the runner starts it.
    ///
    /// - Parameters:
    ///   - manager: the services to run, registered and not started.
    ///   - signals: the signals that begin a graceful shutdown; SIGINT and SIGTERM by default.
    ///   - log: told what the runner does, one line at a time. By default writes to standard error.
    public convenience init(
        manager: ServiceManager,
        signals: [Int32] = [SIGINT, SIGTERM],
        log: @escaping @MainActor (String) -> Void = ServiceRunner.writeToStandardError
    ) {
        self.init(manager: manager, signals: signals, log: log, exit: { Foundation.exit($0) })
    }

    /// Makes a runner that ends the process through `exit`: tests pass a closure that records
    /// the status instead.
    init(
        manager: ServiceManager,
        signals: [Int32],
        log: @escaping @MainActor (String) -> Void,
        exit: @escaping @MainActor (Int32) -> Void
    ) {
        self.manager = manager
        self.signals = signals
        self.log = log
        self.exit = exit
    }

    /// The default log: one line on standard error, prefixed with `ServiceRunner: `.
    ///
    /// - Parameter line: what happened.
    public nonisolated static func writeToStandardError(_ line: String) {
        StandardError.writeLine("ServiceRunner: \(line)")
    }

    /// Starts the services and runs the main queue until a signal ends the process.
    ///
    /// - Warning: Call it once, from the main thread, with a manager that is not started.
    ///   Otherwise it traps, saying which rule was broken.
    public func run() -> Never {
        precondition(Thread.isMainThread, "ServiceRunner.run() must be called on the main thread, from main.swift")
        installSignalHandlers()
        while true {
            // Returns after each batch of main-queue work; the main queue keeps the run loop alive.
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
    }

    /// Begins a graceful shutdown, as the first signal does: for a process that decides to end
    /// on its own (a `quit` command, a fatal configuration error). A second call, or a signal,
    /// during the shutdown forces the exit.
    public func requestShutdown() {
        beginShutdown(reason: "shutdown requested", forcedStatus: Self.uncleanExitStatus)
    }

    // MARK: - Internals, called directly by tests

    /// Starts the manager, then announces launch and activation; nothing once shutdown began
    /// (a signal can arrive between the registrations of two signal sources).
    func launch() {
        guard state == .running else { return }
        let starting: Response<Void>
        do {
            starting = try manager.start()
        } catch {
            preconditionFailure("ServiceRunner.run(): \(error); give the runner a manager it can start")
        }
        log("starting \(manager.serviceNames.count) services: \(manager.serviceNames.joined(separator: ", "))")
        starting.mainActor.onResult { [self] result in
            if case .failure(let error) = result { log("running without some services: \(error)") }
            guard state == .running else { return }
            _ = try? manager.send(.didFinishLaunching)
            _ = try? manager.send(.didBecomeActive)
            log("running; send SIGINT or SIGTERM to stop")
        }
    }

    /// Reacts to `signal`: the first begins a graceful shutdown, the next forces the exit.
    func handleSignal(_ signal: Int32) {
        beginShutdown(reason: "received \(Self.name(of: signal))", forcedStatus: 128 + signal)
    }

    private func beginShutdown(reason: String, forcedStatus: Int32) {
        switch state {
        case .running:
            state = .shuttingDown
            log("\(reason); shutting down")
            shutDown()
        case .shuttingDown:
            log("\(reason) during shutdown; exiting now with status \(forcedStatus)")
            finish(status: forcedStatus)
        case .exited:
            break
        }
    }

    /// Sends `willTerminate`, waits for the answers, stops the services, then exits.
    private func shutDown() {
        manager.holdWaitingServices()
        let terminating: Response<Void>
        do {
            terminating = try manager.send(.willTerminate)
        } catch {
            // Not started yet, or already stopped by the app: no service is running to be told.
            terminating = .succeeded((), on: .immediate)
        }
        terminating.mainActor.onResult { [self] terminated in
            manager.stop().mainActor.onResult { [self] stopped in
                guard state == .shuttingDown else { return }
                var problems: [String] = []
                if case .failure(let error) = terminated { problems.append("\(error)") }
                if case .failure(let error) = stopped { problems.append("\(error)") }
                if problems.isEmpty {
                    log("shutdown clean; exiting with status \(Self.cleanExitStatus)")
                    finish(status: Self.cleanExitStatus)
                } else {
                    let reasons = problems.joined(separator: "; ")
                    log("shutdown not clean (\(reasons)); exiting with status \(Self.uncleanExitStatus)")
                    finish(status: Self.uncleanExitStatus)
                }
            }
        }
    }

    private func finish(status: Int32) {
        state = .exited
        exit(status)
    }

    /// Watches the signals, then launches once Dispatch watches every one of them.
    ///
    /// Dispatch on Linux receives signals through a `signalfd`, registered asynchronously on its
    /// manager thread; until then a signal set to `SIG_IGN` would be discarded. So the signals
    /// are blocked on the main thread first (a blocked signal stays pending instead of being
    /// discarded, and the `signalfd` picks it up once registered; threads started later inherit
    /// the mask), and the services start only from the registration handlers, so that a process
    /// that says it is ready also hears its signals. Measured: without this, a SIGTERM sent
    /// just after the fixture said `ready` was lost in 4 test runs out of 25 on a loaded two-core machine.
    private func installSignalHandlers() {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signalNumber in signals { sigaddset(&blocked, signalNumber) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)

        unregisteredSources = signals.count
        if signals.isEmpty { launch() }
        for signalNumber in signals {
            // Not the default action (ending the process) if a thread that does not block the
            // signal receives it before Dispatch has installed its own handler.
            _ = signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            // Safe: both handlers run on the main queue, which `run()` drains on the main thread.
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.handleSignal(signalNumber) }
            }
            source.setRegistrationHandler { [weak self] in
                MainActor.assumeIsolated { self?.sourceRegistered() }
            }
            source.resume()
            signalSources.append(source)
        }
    }

    private func sourceRegistered() {
        unregisteredSources -= 1
        if unregisteredSources == 0 { launch() }
    }

    /// `SIGINT`, `SIGTERM`, or `signal N`.
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(signal)"
        }
    }
}
