import Foundation
import ResponseKit
import ResponseKitServices

/// A fixture service that starts `/bin/sleep 300` with Foundation's `Process`, as an app's
/// service might start a helper, and ends it with SIGTERM when it stops.
///
/// Lines: `child <pid>` once the child runs; `child exited signal <n>` (or `status <n>`) when it
/// ends, however it ends; `stop spawner`. The stop answers once the child has exited.
final class ChildProcessService: Service {
    let name = "spawner"
    private let child = Process()
    /// Succeeds when the child has exited; the stop's answer.
    private let exited = Response<Void>.pending(on: .immediate)

    func start() -> Response<Void> {
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["300"]
        // Not the fixture's output, which the test reads to its end: a child left running would hold it open.
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        let resolver = exited.resolver
        child.terminationHandler = { process in
            let how = process.terminationReason == .uncaughtSignal ? "signal" : "status"
            say("child exited \(how) \(process.terminationStatus)")
            resolver.succeed()
        }
        do {
            try child.run()
        } catch {
            return .failed(error, on: .immediate)
        }
        say("child \(child.processIdentifier)")
        return .succeeded((), on: .immediate)
    }

    func stop() -> Response<Void> {
        say("stop spawner")
        if child.isRunning { child.terminate() }
        return exited.response
    }
}
