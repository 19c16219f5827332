import CResponseKitServices
import Foundation
import ResponseKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A program a service runs beside the app (a worker, a helper, a sidecar), started so that it
/// behaves like a process of its own and ends with the app, even when the service forgets it.
///
/// Foundation's `Process`, started off the main actor as services should do slow work, gives the
/// child the signal mask of a Dispatch worker thread, which blocks SIGTERM, so `kill` and
/// `systemctl stop` cannot end it; and it puts the child in a process group of its own, so it
/// outlives even a signal to the app's group. A ``ChildProcess`` instead:
/// - starts with no blocked signal and every signal at its default action, whatever thread
///   spawns it;
/// - gets only the descriptors it is given, standard input from /dev/null, and the app's
///   standard output and error;
/// - gets the app's environment without systemd's `NOTIFY_SOCKET`, `WATCHDOG_USEC` and
///   `WATCHDOG_PID`, which name the app, not the child (systemd's `sd_notify(3)` says so too);
/// - stays in the app's process group;
/// - is reaped when it exits, and its ``termination`` is a `Response`;
/// - is ended (SIGTERM, then SIGKILL after its ``gracePeriod``) by the ``ServiceManager`` once
///   its owning service has answered its stop, or missed the limit; and by ``ServiceRunner``,
///   whoever owns it, before the process exits;
/// - on Linux, gets SIGTERM from the kernel when the app dies in any other way (a forced exit,
///   SIGKILL, a crash): its parent-death signal.
///
/// <!-- example: fragment @MainActor -->
/// ```swift
/// @MainActor final class ThumbnailService: Service {
///     let name = "thumbnails"
///     private var worker: ChildProcess?
///
///     func start() -> Response<Void> {
///         let (started, resolver) = Response<Void>.pending()
///         Response<ChildProcess>(on: .global()) {   // off the main actor: no harm done here
///             try ChildProcess.spawn("/usr/bin/thumbnailer", arguments: ["--serve"], ownedBy: self)
///         }
///         .mainActor
///         .onCompletion { worker in
///             self.worker = worker
///             resolver.succeed()
///         }
///         .onFailure { error in resolver.fail(error) }
///         return started
///     }
///
///     func stop() -> Response<Void> {
///         // SIGTERM, SIGKILL after the grace period; answers once the worker has exited.
///         worker?.end().map { _ in } ?? .succeeded()
///     }
/// }
/// ```
///
/// A service that returns `.succeeded()` from ``Service/stop()`` without ending its child loses
/// nothing but the order: the manager ends the child right after, before it stops the services
/// registered earlier.
///
/// ## Threading
/// Every member may be used from any thread. ``spawn(_:arguments:environment:descriptors:ownedBy:gracePeriod:)``
/// forks on a thread that the library keeps for the life of the process (Linux sends the
/// parent-death signal when the thread that forked a child ends) and waits for it, a few
/// milliseconds, until the program runs. ``termination`` delivers on the main queue.
///
/// - Note: The child is reaped by a thread of its own that waits for that one process: code that
///   reaps every child (`waitpid(-1, …)`, SIGCHLD set to `SIG_IGN`) takes its status, and
///   ``termination`` fails with ``ChildProcessError`` (`ECHILD`).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class ChildProcess: Sendable {
    /// The variables of systemd's that name the app and must not reach a child unless asked for:
    /// a child that notified `$NOTIFY_SOCKET` would speak for the app.
    static let supervisorVariables: Set = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    /// The child's process id: valid until ``termination`` succeeds, when the system may give it to
    /// another process. Use ``signal(_:)`` rather than `kill` with it.
    public let processIdentifier: pid_t
    /// How long ``end()`` waits after SIGTERM before it sends SIGKILL.
    public let gracePeriod: Duration
    /// The program, as given to `spawn`.
    let executable: String
    /// The service whose stop ends the child; `nil` for the runner's exit only.
    let owner: ObjectIdentifier?
    /// Where the child is; sends signals under its lock (see ``ChildProcessState``).
    private let state = LockedBox.make(ChildProcessState())

    private init(processIdentifier: pid_t, executable: String, owner: ObjectIdentifier?, gracePeriod: Duration) {
        self.processIdentifier = processIdentifier
        self.executable = executable
        self.owner = owner
        self.gracePeriod = gracePeriod
    }

    /// Starts `executable` as a child process, and returns once it runs.
    ///
    /// - Parameters:
    ///   - executable: the program's absolute path: no `$PATH` search.
    ///   - arguments: the arguments after the program's name (which is `executable`).
    ///   - environment: the child's whole environment. By default, this process's, without
    ///     `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID`; pass them yourself to hand a child
    ///     systemd's socket on purpose.
    ///   - descriptors: the descriptors of this process that the child gets, by the number it gets
    ///     each under: `[1: logFile]` sends its standard output to `logFile`. Standard input
    ///     is /dev/null, and standard output and error are this process's, unless listed. No other
    ///     descriptor reaches the child, close-on-exec or not. At most 64.
    ///   - owner: the service whose stop ends the child, when it forgot to: pass `self` from a
    ///     service. `nil`: only the runner's exit ends it.
    ///   - gracePeriod: how long ``end()`` lets the child handle SIGTERM before SIGKILL.
    /// - Returns: the running child.
    /// - Throws: ``ChildProcessError`` when the program could not be started: it does not exist
    ///   (`ENOENT`), may not be run (`EACCES`), or the system has no room (`EAGAIN`).
    public static func spawn(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        descriptors: [Int32: Int32] = [:],
        ownedBy owner: (any Service & AnyObject)? = nil,
        gracePeriod: Duration = .seconds(5)
    ) throws(ChildProcessError) -> ChildProcess {
        let variables = environment ?? inheritedEnvironment(ProcessInfo.processInfo.environment)
        let pairs = descriptors.sorted { $0.key < $1.key }
        let started = SpawningThread.shared.run { () -> Result<pid_t, ChildProcessError> in
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for string in argv + envp { free(string) } }
            var pid = pid_t()
            let code = rks_spawn(
                executable, argv, envp, pairs.map(\.key), pairs.map(\.value), Int32(pairs.count), SIGTERM, &pid)
            return code == 0 ? .success(pid) : .failure(ChildProcessError(executable: executable, code: code))
        }
        let child = ChildProcess(
            processIdentifier: try started.get(),
            executable: executable,
            owner: owner.map { ObjectIdentifier($0) },
            gracePeriod: gracePeriod
        )
        ChildProcessRegistry.shared.add(child)
        Thread.detachNewThread { child.reap() }
        return child
    }

    /// `environment` without the variables that name this process to its supervisor.
    static func inheritedEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.filter { !supervisorVariables.contains($0.key) }
    }

    /// How the child ended: a response that succeeds once it has exited and been reaped.
    ///
    /// Each read returns a response of its own, so cancelling one changes nothing for the child
    /// or for other readers. Callbacks run on the main queue.
    public var termination: Response<Termination> {
        let (response, resolver) = Response<Termination>.pending()
        if let result = state.withLock({ $0.terminationRequested(resolver) }) {
            resolver.resolveIfPending(with: result.mapError { $0 })
        }
        return response
    }

    /// Ends the child: SIGTERM now, then SIGKILL unless it has exited within ``gracePeriod``.
    /// Calling it again, or after the child exited, sends nothing more.
    ///
    /// - Returns: ``termination``.
    @discardableResult
    public func end() -> Response<Termination> {
        let armsTimer = state.withLock { state in
            guard let signal = state.endRequested() else { return false }
            kill(processIdentifier, signal)  // under the lock: the pid is not reaped meanwhile
            return true
        }
        if armsTimer {
            let timer = DispatchScheduler().schedule(after: gracePeriod) { [self] in
                state.withLock { state in
                    if let signal = state.gracePeriodEnded() { kill(processIdentifier, signal) }
                }
            }
            state.withLock { $0.killTimerArmed(timer) }?.cancel()
        }
        return termination
    }

    /// Sends `signal` to the child, unless it has exited: never to another process that was given
    /// its process id since.
    ///
    /// - Parameter signal: such as SIGHUP, to make the child reload.
    public func signal(_ signal: Int32) {
        state.withLock { state in
            if let signal = state.signalRequested(signal) { kill(processIdentifier, signal) }
        }
    }

    /// Waits for the child to exit, on a thread of its own; then reaps it, stops listing it and
    /// tells whoever waits. The state learns of the exit before the reap, so that no signal is
    /// sent to a process id the system may have given away.
    private func reap() {
        var info = siginfo_t()
        var noticed: Int32
        repeat {
            noticed = waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT)
        } while noticed == -1 && errno == EINTR
        state.withLock { $0.childExited() }?.cancel()
        var status: Int32 = 0
        var reaped: pid_t
        repeat {
            reaped = waitpid(processIdentifier, &status, 0)
        } while reaped == -1 && errno == EINTR
        let result: Result<Termination, ChildProcessError>
        if reaped == processIdentifier {
            result = .success(Termination(waitStatus: status))
        } else {
            result = .failure(ChildProcessError(executable: executable, code: ECHILD))
        }
        ChildProcessRegistry.shared.remove(self)
        for resolver in state.withLock({ $0.childReaped(result) }) {
            resolver.resolveIfPending(with: result.mapError { $0 })  // a reader may have cancelled its own
        }
    }
}
