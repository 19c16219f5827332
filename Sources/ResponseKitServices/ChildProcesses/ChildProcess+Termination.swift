#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ChildProcess {
    /// How a child process ended: what ``ChildProcess/termination`` succeeds with.
    ///
    /// A shell reports `.killed(by: SIGTERM)` as status 143 (128 + 15); here the two stay apart,
    /// so that a child that chose to exit with 143 is not taken for one that was killed.
    public enum Termination: Sendable, Hashable, CustomStringConvertible {
        /// The program exited by itself (`exit`, or returning from `main`) with this status.
        case exited(status: Int32)
        /// A signal ended the program: SIGTERM from ``ChildProcess/end()``, SIGKILL after the grace
        /// period, or any other sender's.
        case killed(by: Int32)

        /// Decodes a raw `waitpid` status, as `WIFEXITED`, `WEXITSTATUS` and `WTERMSIG` do (Swift
        /// imports none of them); the encoding is the same on Linux and Apple platforms.
        init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited(status: (status >> 8) & 0xff) : .killed(by: signal)
        }

        /// `exited with status 3`, or `killed by SIGTERM`.
        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .killed(let signal): "killed by \(ServiceRunner.name(of: signal))"
            }
        }
    }
}
