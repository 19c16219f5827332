import Dispatch
import Foundation
import ResponseKit
import ResponseKitDemoCore
import ResponseKitServices

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// A tiny process for ServiceRunnerProcessTests: runs three services under ServiceRunner and
// says what they are asked to do, one line each on standard output, for the test to read.
//
//     ServiceRunnerFixture <mode> <analytics log path>
//
// Modes:
//   clean          every service starts and stops                    -> exit status 0
//   failing-stop   "database" fails to stop                          -> exit status 1
//   hanging-stop   "database" never answers stop; stop timeout 0.2 s -> exit status 1
//   stuck-stop     "database" never answers stop; stop timeout 1 h   -> a second signal forces exit 128 + signal
//   failing-start  "database" fails to start; the others run         -> exit status 1
//   child-process  a fourth service, "spawner", starts /bin/sleep 300 and says `child <pid>`;
//                  its stop ends the child with SIGTERM (stop timeout 5 s) -> exit status 0
//   forgotten-children
//                  a fourth service, "spawner", starts two /bin/sleep 300 with ChildProcess from a
//                  Dispatch worker, one owned by it, one by no one, says `owned child <pid>` and
//                  `unowned child <pid>`, and forgets both in its stop      -> exit status 0
//   forgotten-children-stuck-stop
//                  as forgotten-children, and "database" never answers stop (as in stuck-stop)
//   stuck-main     after `ready`, the main thread sends itself SIGTERM, says `stuck` and blocks
//                  for good                                          -> a second signal forces exit 128 + signal
//   failing-start-shut-down
//                  "database" fails to start under the shutDown start-failure policy: the runner
//                  shuts down without a signal; "announcer" never starts     -> exit status 1
//   main-queue-control
//                  as clean, and reads commands on standard input, off the main thread:
//                  `block` makes a main-queue job that says `blocked` and waits until `release`,
//                  then says `unblocked` (for the watchdog: no ping while the main queue is blocked)
//
// Under systemd's variables (NOTIFY_SOCKET, WATCHDOG_USEC) the runner notifies the socket they name.

/// What a mode changes.
struct Mode {
    var databaseStartFails = false
    var databaseStop = EchoService.StopAnswer.succeed
    var stopTimeout = Duration.seconds(30)
    var spawnsChild = false
    var forgetsChildren = false
    var blocksMainThreadAfterReady = false
    var startFailurePolicy = ServiceRunner.StartFailurePolicy.keepRunning
    var readsMainQueueCommands = false
}

let arguments = CommandLine.arguments
let modes: [String: Mode] = [
    "clean": Mode(),
    "failing-stop": Mode(databaseStop: .fail),
    "hanging-stop": Mode(databaseStop: .hang, stopTimeout: .milliseconds(200)),
    "stuck-stop": Mode(databaseStop: .hang, stopTimeout: .seconds(3600)),
    "failing-start": Mode(databaseStartFails: true),
    "child-process": Mode(stopTimeout: .seconds(5), spawnsChild: true),
    "forgotten-children": Mode(forgetsChildren: true),
    "forgotten-children-stuck-stop": Mode(databaseStop: .hang, stopTimeout: .seconds(3600), forgetsChildren: true),
    "stuck-main": Mode(blocksMainThreadAfterReady: true),
    "failing-start-shut-down": Mode(databaseStartFails: true, startFailurePolicy: .shutDown),
    "main-queue-control": Mode(readsMainQueueCommands: true),
]
guard arguments.count == 3, let mode = modes[arguments[1]] else {
    say("usage: ServiceRunnerFixture \(modes.keys.sorted().joined(separator: "|")) <analytics log path>")
    exit(64)
}

/// Sends SIGTERM to the main thread itself (its handler has run once `pthread_kill` returns),
/// says `stuck`, and blocks the main thread for good in a read that never ends: the runner can
/// never read that first signal.
@MainActor
func blockMainThreadAfterASignal() {
    DispatchQueue.main.async {
        pthread_kill(pthread_self(), SIGTERM)
        say("stuck")
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        var byte: UInt8 = 0
        while true { _ = read(ends[0], &byte, 1) }  // the write end stays open: no byte, no end of file
    }
}

/// Reads `block` and `release` from standard input on a thread of its own: `block` queues a
/// main-queue job that waits, blocking the main queue, until `release` lets it go.
func obeyMainQueueCommands() {
    let released = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        while let command = readLine() {
            switch command {
            case "block":
                DispatchQueue.main.async {
                    say("blocked")
                    released.wait()
                    say("unblocked")
                }
            case "release":
                released.signal()
            default:
                say("unknown command \(command)")
            }
        }
    }
}

let services = ServiceManager(timeouts: ServiceTimeouts(stop: mode.stopTimeout))
let analytics = AnalyticsService(logFile: arguments[2])
// Stopped last (reverse order), so in stuck-stop mode its log holds only what willTerminate flushed.
try services.register(analytics)
try services.register(
    EchoService(name: "database", startFails: mode.databaseStartFails, stopAnswer: mode.databaseStop))
if mode.spawnsChild { try services.register(ChildProcessService()) }
if mode.forgetsChildren { try services.register(ForgetfulSpawnerService()) }
try services.register(
    EchoService(name: "announcer", onReady: mode.blocksMainThreadAfterReady ? blockMainThreadAfterASignal : {}))
analytics.track("fixture \(arguments[1])")
if mode.readsMainQueueCommands { obeyMainQueueCommands() }
ServiceRunner(manager: services, startFailurePolicy: mode.startFailurePolicy).run()
