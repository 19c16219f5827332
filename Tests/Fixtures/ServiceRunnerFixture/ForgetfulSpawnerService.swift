import Dispatch
import ResponseKit
import ResponseKitServices

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A fixture service that starts two `/bin/sleep 300` children with `ChildProcess` from a Dispatch
/// worker thread, as the services article advises for slow work, and forgets both in its stop:
/// one owned by the service (the manager ends it after the stop), one owned by no one (the
/// runner ends it before the process exits, and the kernel when the process dies).
///
/// Lines: `owned child <pid>` and `unowned child <pid>` once both run; `owned child <how it
/// ended>` (such as `owned child killed by SIGTERM`) and the same for `unowned` when they end;
/// `stop spawner`.
final class ForgetfulSpawnerService: Service {
    let name = "spawner"

    func start() -> Response<Void> {
        let (started, resolver) = Response<Void>.pending()
        Response<[ChildProcess]>(on: .global()) { [self] in
            // The children's output is not the fixture's, which the test reads to its end.
            let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
            defer { close(null) }
            let quiet: [Int32: Int32] = [1: null, 2: null]
            return [
                try ChildProcess.spawn("/bin/sleep", arguments: ["300"], descriptors: quiet, ownedBy: self),
                try ChildProcess.spawn("/bin/sleep", arguments: ["300"], descriptors: quiet),
            ]
        }
        .mainActor
        .onCompletion { children in
            for (child, role) in zip(children, ["owned", "unowned"]) {
                say("\(role) child \(child.processIdentifier)")
                child.termination.onCompletion { termination in say("\(role) child \(termination)") }
            }
            resolver.succeed()
        }
        .onFailure { error in resolver.fail(error) }
        return started
    }

    func stop() -> Response<Void> {
        say("stop spawner")
        return .succeeded((), on: .immediate)  // the children are forgotten
    }
}
