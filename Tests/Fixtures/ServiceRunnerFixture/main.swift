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
// Modes say how the "database" service answers stop():
//   clean         succeeds                          -> exit status 0
//   failing-stop  fails                             -> exit status 1
//   hanging-stop  never answers; stop timeout 0.2 s -> exit status 1
//   stuck-stop    never answers; stop timeout 1 h   -> a second signal forces exit 128 + signal

let arguments = CommandLine.arguments
let modes: [String: (EchoService.StopAnswer, Duration)] = [
    "clean": (.succeed, .seconds(30)),
    "failing-stop": (.fail, .seconds(30)),
    "hanging-stop": (.hang, .milliseconds(200)),
    "stuck-stop": (.hang, .seconds(3600)),
]
guard arguments.count == 3, let (stopAnswer, stopTimeout) = modes[arguments[1]] else {
    say("usage: ServiceRunnerFixture clean|failing-stop|hanging-stop|stuck-stop <analytics log path>")
    exit(64)
}

let services = ServiceManager(timeouts: ServiceTimeouts(stop: stopTimeout))
let analytics = AnalyticsService(logFile: arguments[2])
// Stopped last (reverse order), so in stuck-stop mode its log holds only what willTerminate flushed.
try services.register(analytics)
try services.register(EchoService(name: "database", stopAnswer: stopAnswer))
try services.register(EchoService(name: "announcer", announcesReady: true))
analytics.track("fixture \(arguments[1])")
ServiceRunner(manager: services).run()
