#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why ``ChildProcess/spawn(_:arguments:environment:descriptors:ownedBy:gracePeriod:)`` could not
/// start a program, or why a child's ``ChildProcess/termination`` is unknown.
///
/// The system's reason travels as its `errno` value, ``code``: `ENOENT` for a program that does
/// not exist, `EACCES` for one that may not be run, `EAGAIN` when the system has no room for
/// another process; `ECHILD` when other code reaped the child (a `waitpid(-1, …)` of its own, or
/// SIGCHLD set to `SIG_IGN`), so its status is lost.
public struct ChildProcessError: Error, Hashable, CustomStringConvertible {
    /// The program, as given to `spawn`.
    public let executable: String
    /// The `errno` value that says why.
    public let code: Int32

    /// `cannot start /usr/bin/worker: No such file or directory`, or, for a child reaped
    /// elsewhere, `/usr/bin/worker was reaped by other code; its status is lost`.
    public var description: String {
        if code == ECHILD { return "\(executable) was reaped by other code; its status is lost" }
        return "cannot start \(executable): \(String(cString: strerror(code)))"
    }
}
