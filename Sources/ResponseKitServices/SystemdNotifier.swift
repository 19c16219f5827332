#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Sends systemd's service notifications (`READY=1`, `STOPPING=1`, `WATCHDOG=1`, `STATUS=…`) to
/// the socket named by `$NOTIFY_SOCKET`: the `sd_notify` datagram protocol, written directly, so
/// that no process needs libsystemd. The only code that touches the socket.
///
/// A message is one datagram of newline-separated `KEY=value` assignments, sent to an `AF_UNIX`
/// datagram socket: a file-system path (`/run/systemd/notify`), or an abstract name when the
/// variable starts with `@` (the `@` stands for the leading NUL byte of the kernel's abstract
/// namespace). Other forms (`vsock:`, relative paths) are refused, with a reason.
///
/// Sends never block: a supervisor whose queue is full must not stall the main queue that sends
/// the watchdog's pings, so such a send fails with `EAGAIN` instead.
///
/// Linux only: elsewhere ``init(environment:)`` always returns `nil`.
///
/// Sendable by compiler check: it holds only the descriptor and the address, both constants, and
/// `sendto` may be called on one socket from any thread.
final class SystemdNotifier: Sendable {
    /// Why no notifier could be made, or a message not sent.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `$NOTIFY_SOCKET` as given: the path, or the abstract name with its `@`.
    let socketName: String
    #if os(Linux)
    private let descriptor: Int32
    private let address: sockaddr_un
    private let addressLength: socklen_t
    #endif

    /// Makes a notifier for the socket `$NOTIFY_SOCKET` names in `environment`.
    ///
    /// - Parameter environment: the process's environment, or a test's.
    /// - Returns: `nil` when the variable is unset or empty (no supervisor listens), or off Linux.
    /// - Throws: ``Failure`` when the variable names no socket this protocol can reach, or no socket
    ///   can be made.
    init?(environment: [String: String]) throws(Failure) {
        guard let name = environment["NOTIFY_SOCKET"], !name.isEmpty else { return nil }
        #if os(Linux)
        var path = Array(name.utf8)
        let isAbstract = path[0] == UInt8(ascii: "@")
        guard isAbstract || path[0] == UInt8(ascii: "/") else {
            throw Failure(description: "NOTIFY_SOCKET=\(name) is neither an absolute path nor an abstract name (@…)")
        }
        if isAbstract { path[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // A path keeps room for its terminating NUL (already there: the address starts zeroed);
        // an abstract name has none and may fill the field.
        guard path.count + (isAbstract ? 0 : 1) <= MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "NOTIFY_SOCKET=\(name) is longer than a socket address holds")
        }
        // The bytes of the fixed-size C array `sun_path`, which Swift imports as a tuple.
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw Failure(description: "no socket for NOTIFY_SOCKET=\(name): \(String(cString: strerror(errno)))")
        }
        self.socketName = name
        self.descriptor = descriptor
        self.address = address
        // As `sd_notify` does: the family, then the name's bytes, with the NUL of a path.
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        self.addressLength = socklen_t(pathOffset + path.count + (isAbstract ? 0 : 1))
        #else
        return nil
        #endif
    }

    /// `CLOCK_MONOTONIC` in microseconds: the clock of systemd's `MONOTONIC_USEC=`.
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }

    deinit {
        #if os(Linux)
        close(descriptor)
        #endif
    }

    /// Sends `assignments` as one datagram, each on a line of its own, such as
    /// `["READY=1", "STATUS=running"]`.
    ///
    /// A newline inside an assignment would start a new one, so each becomes a space.
    ///
    /// - Throws: ``Failure`` saying why the supervisor did not get it.
    func send(_ assignments: [String]) throws(Failure) {
        #if os(Linux)
        let message = assignments.map { $0.replacing("\n", with: " ") }.joined(separator: "\n")
        let bytes = Array(message.utf8)
        var sent: Int
        repeat {
            // `sendto` takes the generic `sockaddr *`, whose first field, the family, is shared by
            // every address type; the kernel reads `addressLength` bytes, all inside `address`.
            sent = withUnsafePointer(to: address) { address in
                address.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), generic, addressLength)
                }
            }
        } while sent < 0 && errno == EINTR
        guard sent == bytes.count else {
            let reason = sent < 0 ? String(cString: strerror(errno)) : "sent \(sent) of \(bytes.count) bytes"
            throw Failure(description: "could not tell \(socketName) \(message.debugDescription): \(reason)")
        }
        #endif
    }
}
