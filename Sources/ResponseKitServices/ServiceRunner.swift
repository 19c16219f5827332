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
/// the main queue running for the life of the process, asks the services to reload on SIGHUP,
/// and on SIGINT or SIGTERM shuts down gracefully and exits.
///
/// <!-- example: fragment @MainActor -->
/// ```swift
/// @MainActor final class DatabaseService: Service {
///     let name = "database"
///     func start() -> Response<Void> { .succeeded() }   // open it
///     func stop() -> Response<Void> { .succeeded() }    // close it
/// }
///
/// // main.swift
/// let services = ServiceManager()
/// try services.register(DatabaseService())
/// ServiceRunner(manager: services).run()   // never returns
/// ```
///
/// ## What happens
/// 1. ``run()`` catches the signals (SIGINT, SIGTERM and SIGHUP by default), then starts the manager,
///    and once every service has answered its start, sends ``LifecycleEvent/didFinishLaunching``
///    then ``LifecycleEvent/didBecomeActive``. A service that fails to start is reported and the
///    process runs without it, or, under the ``StartFailurePolicy/shutDown`` policy, shuts down
///    at once (step 2).
/// 2. The first signal (or ``requestShutdown()``) sends ``LifecycleEvent/willTerminate``, waits
///    for every service to answer it (within ``ServiceTimeouts/event``), then stops the services
///    in reverse order (each within ``ServiceTimeouts/stop``). A service still waiting to start
///    is never started; one whose start is in flight is stopped once it has started.
/// 3. The ``ChildProcess``es still running are ended (SIGTERM, then SIGKILL after their grace
///    period); a service's own were ended when it stopped.
/// 4. The process exits with ``cleanExitStatus`` (0) only when every service started, handled
///    `willTerminate` and stopped, none failing or timing out. Any failure gives
///    ``uncleanExitStatus`` (1): a start that failed or timed out (also that of a service
///    registered after launch), a `willTerminate` not handled, a stop that failed or timed out.
///    A service never started because the shutdown began first is no failure.
/// 5. A second signal during shutdown exits at once, with status 128 + the signal's number
///    (130 for SIGINT, 143 for SIGTERM), as a shell reports a process killed by that signal;
///    even when the main queue is stuck (see below).
///
/// A supervisor (systemd, a container runtime, a CI step) can therefore read the status: 0 for a
/// clean run, 1 for a run in which some service failed, 128 + N for a forced exit.
///
/// While running, a reload signal (SIGHUP) or ``requestReload()`` sends
/// ``LifecycleEvent/didReceiveReloadRequest`` to the running services and waits for their answers
/// (each within ``ServiceTimeouts/reload``). A service that fails to reload is reported and keeps
/// running; a failed reload does not change the exit status. A request during a reload is served
/// by one more reload after it; one while starting or shutting down is ignored.
///
/// From launch until the shutdown begins, the runner also sends
/// ``LifecycleEvent/didReceiveMemoryWarning`` to the running services when the system is short of
/// memory, at most once per window (see below), so that they drop caches before the kernel has to
/// reclaim harder or kill.
///
/// The runner reports what it does as lines on standard error, such as
/// `ServiceRunner: received SIGTERM; shutting down`.
///
/// ## Signals and child processes
/// The runner catches its signals with a handler of its own that only writes the signal's
/// number to a pipe, which the runner reads on the main queue. It blocks no signal and ignores
/// none, so it changes nothing that the process's threads and children inherit.
///
/// A child process inherits the signal mask of the *thread* that starts it, and libdispatch's
/// worker threads block nearly every signal, SIGTERM included: a child that Foundation's
/// `Process` starts off the main actor, as services should do slow work, cannot be ended by
/// `kill` or `systemctl stop`, and, in a process group of its own, outlives the app. Start
/// children with ``ChildProcess/spawn(_:arguments:environment:descriptors:ownedBy:gracePeriod:)``
/// instead, from any thread: no blocked signal, default signal actions, the app's process group.
/// The runner ends every ``ChildProcess`` still running once the services have stopped (SIGTERM,
/// then SIGKILL after its grace period) and exits once they have exited; a forced exit sends
/// them SIGTERM without waiting; and on Linux the kernel sends them SIGTERM when the runner dies
/// any other way (SIGKILL, a crash), their parent-death signal.
///
/// When a shutdown signal arrives before the main queue has finished with the previous one (the
/// main queue is busy, or stuck), the handler ends the process itself, with status 128 + the signal:
/// it writes a line such as `ServiceRunner: received SIGINT while the main queue was still busy
/// with the previous signal; exiting now with status 130` to standard error (whatever `log` is)
/// and calls `_exit`, which runs no `atexit` handler and flushes no buffered output. So two
/// signals always end the process, even one whose main thread is blocked for good. Reload
/// signals never do: they only ask for a reload.
///
/// - Note: Leave the runner's signals to it: do not also watch them with `signal(_:_:)`,
///   `sigaction` or a Dispatch signal source. The last handler installed wins, and on Linux a
///   Dispatch signal source hears only signals that every thread blocks.
///
/// ## Under systemd
/// When `$NOTIFY_SOCKET` is set, as systemd sets it for a unit with `Type=notify`, the runner
/// tells systemd where it is, with the `sd_notify` protocol (no libsystemd needed):
/// - `READY=1` with `STATUS=running` once every service registered before ``run()`` has answered
///   its start; with `STATUS=running without some services: …` naming those that failed. So
///   `systemctl start` returns when the app is ready, and `systemctl status` shows what is missing.
/// - `STATUS=` again, at once, when a service registered later fails to start.
/// - `RELOADING=1` with `MONOTONIC_USEC=` (the `CLOCK_MONOTONIC` time, in microseconds) and
///   `STATUS=reloading` when a reload begins, then `READY=1` with `STATUS=running` once every
///   running service has answered it, or `STATUS=running; reload failed: …` naming those that
///   failed: what a `Type=notify-reload` unit expects after it sends SIGHUP.
/// - `STOPPING=1` with `STATUS=shutting down: …` (the reason) when the shutdown begins.
/// - `WATCHDOG=1` at half the interval of `$WATCHDOG_USEC` (`WatchdogSec=`), unless
///   `$WATCHDOG_PID` names another process. The pings are sent *from the main queue*: a main
///   queue blocked for longer than the interval sends none, and systemd ends the process.
///
/// Without `$NOTIFY_SOCKET` nothing is sent. The runner logs the socket and the watchdog's interval
/// at launch, and any message that could not be sent.
///
/// The runner leaves `$NOTIFY_SOCKET` and `$WATCHDOG_USEC` in the process's environment: removing
/// a variable is not safe once other threads may read the environment, and by the time `run()`
/// is called Dispatch's threads do. A ``ChildProcess`` does not inherit them (unless given them on
/// purpose), so it cannot speak for the app; a child started by other means does.
///
/// ## Memory pressure
/// On Linux the runner asks the kernel's pressure stall information (PSI) to say when tasks waited
/// for memory longer than the ``MemoryPressureWatch`` threshold (by default 200 ms in any 2 s, as
/// systemd's `MemoryPressureThresholdSec=`): it writes a trigger such as `some 200000 2000000` into
/// the file that `$MEMORY_PRESSURE_WATCH` names (systemd's `MemoryPressureWatch=`; `/dev/null`
/// means off), with the trigger `$MEMORY_PRESSURE_WRITE` gives when set; without those, into the
/// `memory.pressure` of the process's cgroup, else `/proc/pressure/memory`. A thread of the
/// runner's waits for the kernel's notifications and hands each to the main queue, where it
/// becomes ``LifecycleEvent/didReceiveMemoryWarning``, at most one per window, for the running
/// services. The runner logs the file it watches, or why none (no PSI, a trigger the kernel
/// refuses): the app runs on either way. On Apple platforms Dispatch's memory-pressure source
/// (warning and critical) sends the same event. The watch ends when the shutdown begins: no
/// warning follows `willTerminate`.
///
/// ## Threading
/// Call ``run()`` from the main thread (top-level code in `main.swift`). It runs the main run
/// loop, which drains the main queue *on the main thread*. Unlike `dispatchMain()`, which on
/// Linux drains the main queue on another thread, this keeps `Thread.isMainThread` true in
/// main-actor code, and lets a blocking `Response.value` read on the main thread keep servicing
/// the main queue. The runner handles each signal on the main queue, never in the signal
/// handler, so shutdown code may do anything.
@MainActor
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class ServiceRunner {
    /// The exit status after a run in which every service started, handled `willTerminate` and
    /// stopped: a supervisor reads it as success.
    public static let cleanExitStatus: Int32 = 0
    /// The exit status after a run in which some service failed or timed out: to start (whenever
    /// it was registered), to handle `willTerminate`, or to stop. Also the status of a second
    /// ``requestShutdown()``. A supervisor reads it as failure, though the process shut down.
    public static let uncleanExitStatus: Int32 = 1

    /// The services this runner starts and stops.
    public let manager: ServiceManager
    /// What a failed start leads to: running on without the service, or shutting down.
    public var startFailurePolicy: StartFailurePolicy { state.startFailurePolicy }
    let signals: [Int32]
    /// The signals that ask the services to reload: SIGHUP by default.
    let reloadSignals: [Int32]
    let log: @MainActor (String) -> Void
    private let exit: @MainActor (Int32) -> Void
    /// Where `$NOTIFY_SOCKET` and `$WATCHDOG_USEC` are read: the process's, or a test's.
    let environment: [String: String]
    /// Reads the signal numbers that the C handler writes to its pipe; `nil` until ``run()``.
    var signalReader: (any DispatchSourceRead)?
    /// Tells systemd what the runner does; `nil` without `$NOTIFY_SOCKET`, and before ``launch()``.
    var notifier: SystemdNotifier?
    /// Pings systemd's watchdog from the main queue; `nil` without `$WATCHDOG_USEC`.
    var watchdog: SystemdWatchdog?
    /// Whether a notification failed already: the log says so once, not at every watchdog ping.
    var hasLoggedNotificationFailure = false
    /// Where the runner is: changed only through its transitions, which say what to do next.
    var state: ServiceRunnerState
    /// Whether, and past what stall, the runner sends ``LifecycleEvent/didReceiveMemoryWarning``.
    public let memoryPressure: MemoryPressureWatch
    /// Where the runner looks for a memory-pressure file without systemd's variables: the real
    /// places, or a test's.
    let memoryPressurePlaces: MemoryPressureFile.Places
    /// Watches memory pressure; `nil` when off, refused, before ``launch()`` and after the shutdown began.
    var memoryPressureMonitor: MemoryPressureMonitor?
    /// Whether the monitor's reports still become warnings, and when the last was sent; `nil`
    /// until a monitor runs.
    var memoryPressureState: MemoryPressureState?
    /// The child processes the runner ends before the process exits: the process's, or `nil` in
    /// tests, whose runners must not end the children of other tests.
    let children: ChildProcessRegistry?

    /// Makes a runner for `manager`, which must not be started yet: the runner starts it.
    ///
    /// - Parameters:
    ///   - manager: the services to run, registered and not started.
    ///   - signals: the signals that begin a graceful shutdown; SIGINT and SIGTERM by default.
    ///   - reloadSignals: the signals that send ``LifecycleEvent/didReceiveReloadRequest``; SIGHUP
    ///     by default, as daemons and `systemctl reload` expect. Pass `[]` (and SIGHUP among
    ///     `signals`, if you like) for a terminal program that should end when its terminal closes.
    ///   - startFailurePolicy: what a failed start leads to: ``StartFailurePolicy/keepRunning``
    ///     without the service (the default) or ``StartFailurePolicy/shutDown`` at once.
    ///   - memoryPressure: when to send ``LifecycleEvent/didReceiveMemoryWarning``: by default
    ///     at a stall of 200 ms in 2 s; ``MemoryPressureWatch/threshold(stall:window:)`` for
    ///     another, or ``MemoryPressureWatch/off``.
    ///   - log: told what the runner does, one line at a time. By default writes to standard error.
    ///
    /// - Warning: A signal cannot both shut down and reload: the initializer traps when
    ///   `signals` and `reloadSignals` share one.
    public convenience init(
        manager: ServiceManager,
        signals: [Int32] = [SIGINT, SIGTERM],
        reloadSignals: [Int32] = [SIGHUP],
        startFailurePolicy: StartFailurePolicy = .keepRunning,
        memoryPressure: MemoryPressureWatch = .default,
        log: @escaping @MainActor (String) -> Void = ServiceRunner.writeToStandardError
    ) {
        self.init(
            manager: manager,
            signals: signals,
            reloadSignals: reloadSignals,
            startFailurePolicy: startFailurePolicy,
            memoryPressure: memoryPressure,
            log: log,
            environment: ProcessInfo.processInfo.environment,
            children: .shared,
            exit: { Foundation.exit($0) }
        )
    }

    /// Makes a runner that reads `environment` and ends the process through `exit`: tests pass an
    /// environment of their own (no process-wide variable, so tests may run in parallel) and a
    /// closure that records the status. Memory pressure is not watched unless a test asks, at the
    /// `memoryPressurePlaces` it gives.
    init(
        manager: ServiceManager,
        signals: [Int32],
        reloadSignals: [Int32] = [],
        startFailurePolicy: StartFailurePolicy = .keepRunning,
        memoryPressure: MemoryPressureWatch = .off,
        memoryPressurePlaces: MemoryPressureFile.Places = MemoryPressureFile.Places(),
        log: @escaping @MainActor (String) -> Void,
        environment: [String: String] = [:],
        children: ChildProcessRegistry? = nil,
        exit: @escaping @MainActor (Int32) -> Void
    ) {
        let both = Set(signals).intersection(reloadSignals).sorted().map(Self.name(of:))
        precondition(both.isEmpty, "ServiceRunner: \(both.joined(separator: ", ")) cannot both shut down and reload")
        self.manager = manager
        self.signals = signals
        self.reloadSignals = reloadSignals
        self.state = ServiceRunnerState(startFailurePolicy: startFailurePolicy)
        self.memoryPressure = memoryPressure
        self.memoryPressurePlaces = memoryPressurePlaces
        self.log = log
        self.environment = environment
        self.children = children
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
        catchSignals()
        launch()
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

    /// Asks the running services to reload their configuration, as a reload signal (SIGHUP) does:
    /// for an app that learns of new configuration by other means (an admin command, a watched
    /// file). Sends ``LifecycleEvent/didReceiveReloadRequest`` and, under systemd, `RELOADING=1`
    /// then `READY=1` once every service has answered. A request during a reload starts one more
    /// reload after it; one while starting or shutting down is ignored (and logged).
    public func requestReload() {
        reload(reason: "reload requested")
    }

    // MARK: - Internals, called directly by tests

    /// Connects to the supervisor, starts the manager, then announces launch and activation;
    /// nothing once shutdown began.
    func launch() {
        guard state.phase == .launching else { return }
        connectToSupervisor()
        // Before the start, which may end in a shutdown (a failed start under `shutDown`), which stops it.
        watchMemoryPressure()
        manager.startFailureObserver = { [weak self] failure in self?.serviceFailedToStart(failure) }
        let starting: Response<Void>
        do {
            starting = try manager.start()
        } catch {
            preconditionFailure("ServiceRunner.run(): \(error); give the runner a manager it can start")
        }
        log("starting \(manager.serviceNames.count) services: \(manager.serviceNames.joined(separator: ", "))")
        starting.mainActor.onResult { [self] result in
            guard let action = state.launchFinished() else { return }
            if case .failure(let error) = result { log("running without some services: \(error)") }
            perform(action, reason: "launched")
        }
    }

    /// Reacts to `signal`: a reload signal reloads; otherwise the first begins a graceful
    /// shutdown, the next forces the exit.
    func handleSignal(_ signal: Int32) {
        let reason = "received \(Self.name(of: signal))"
        if reloadSignals.contains(signal) {
            reload(reason: reason)
        } else {
            beginShutdown(reason: reason, forcedStatus: 128 + signal)
        }
    }

    private func beginShutdown(reason: String, forcedStatus: Int32) {
        guard let action = state.shutdownRequested(forcedStatus: forcedStatus) else { return }
        if case .exit(let status) = action { log("\(reason) during shutdown; exiting now with status \(status)") }
        perform(action, reason: reason)
    }

    /// A service failed to start, whenever it was registered: the policy says what follows.
    private func serviceFailedToStart(_ failure: ServiceFailure) {
        guard let action = state.serviceFailedToStart() else { return }
        perform(action, reason: "\(failure)")
    }

    /// Does what the state decided; `reason` says why, for the log and the supervisor.
    func perform(_ action: ServiceRunnerState.Action, reason: String) {
        switch action {
        case .announceReadiness:
            _ = try? manager.send(.didFinishLaunching)
            _ = try? manager.send(.didBecomeActive)
            notifySupervisor(["READY=1", "STATUS=\(runningStatus)"])
            log("running; send SIGINT or SIGTERM to stop")
        case .reportFailedStarts:
            notifySupervisor(["STATUS=\(runningStatus)"])
        case .reload:
            reloadServices(reason: reason)
        case .finishReload(let failure, let reloadsAgain):
            finishReload(failure: failure, reloadsAgain: reloadsAgain)
        case .shutDown:
            log("\(reason); shutting down")
            notifySupervisor(["STOPPING=1", "STATUS=shutting down: \(reason)"])
            stopWatchingMemoryPressure()
            shutDown()
        case .exit(let status):
            stopWatchingMemoryPressure()
            // After a graceful shutdown none is left; a forced exit does not wait for them.
            children?.signalAll(SIGTERM)
            exit(status)
        }
    }

    /// `running`, or `running without some services: ` and the failed starts.
    var runningStatus: String {
        let failures = manager.failedStarts
        guard !failures.isEmpty else { return "running" }
        return "running without some services: " + failures.map(\.description).joined(separator: "; ")
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
                endChildProcesses { [self] in finishShutdown(terminated: terminated, stopped: stopped) }
            }
        }
    }

    /// Decides the exit status once the services have stopped and the child processes exited.
    private func finishShutdown(terminated: Result<Void, any Error>, stopped: Result<Void, any Error>) {
        guard state.phase == .shuttingDown else { return }
        // Every failed start, including those of services registered after launch, whose
        // failures only their registration's response carried.
        var problems = manager.failedStarts.map(\.description)
        if case .failure(let error) = terminated { problems.append("\(error)") }
        if case .failure(let error) = stopped { problems.append("\(error)") }
        let status: Int32
        if problems.isEmpty {
            status = Self.cleanExitStatus
            log("shutdown clean; exiting with status \(status)")
        } else {
            status = Self.uncleanExitStatus
            log("shutdown not clean (\(problems.joined(separator: "; "))); exiting with status \(status)")
        }
        if let action = state.shutdownFinished(status: status) { perform(action, reason: "shut down") }
    }
}
