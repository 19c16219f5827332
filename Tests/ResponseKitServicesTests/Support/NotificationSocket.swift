import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// A real `AF_UNIX` datagram socket that plays systemd's part: the runner under test is told its
/// name as `NOTIFY_SOCKET`, and the test reads what arrives, one datagram per message.
///
/// Bound to a fresh path under /tmp, or to a fresh abstract name (`@…`), so that parallel tests
/// never share one. A blocking read waits at most 30 seconds, which only matters when the code
/// under test is broken; nothing sleeps.
final class NotificationSocket: Sendable {
    enum Kind {
        /// A socket file under /tmp.
        case path
        /// A name in the kernel's abstract namespace, written with a leading `@`.
        case abstract
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let patience = 30

    /// What `NOTIFY_SOCKET` says: the path, or `@` and the abstract name.
    let name: String
    private let descriptor: Int32

    init(_ kind: Kind) throws {
        let unique = UUID().uuidString.prefix(18)
        name = kind == .path ? "/tmp/rks-notify-\(unique).sock" : "@rks-notify-\(unique)"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }

        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if kind == .abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(2 + bytes.count + (kind == .abstract ? 0 : 1))
        let bound = withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "bind \(name): \(reason)")
        }
        var patience = timeval(tv_sec: Self.patience, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
        if name.hasPrefix("/") { unlink(name) }
    }

    /// `NOTIFY_SOCKET` naming this socket, for the runner's environment.
    var environment: [String: String] { ["NOTIFY_SOCKET": name] }

    /// The next datagram, read on a thread of its own; `nil` after 30 seconds without one.
    ///
    /// Not on a Dispatch worker: on Linux those also run Swift concurrency's jobs, so a dozen
    /// tests blocked in `recv` there starve the whole test run (by a minute, on two cores) until
    /// libdispatch adds threads. Nor on the main queue, which the runner needs to send.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.receive(flags: 0)) }
        }
    }

    /// The next datagram, waiting at most 30 seconds; for a test off the main actor.
    func nextBlocking() -> String? {
        receive(flags: 0)
    }

    /// The datagrams already queued, oldest first, without waiting.
    func queued() -> [String] {
        var messages: [String] = []
        while let message = receive(flags: Int32(MSG_DONTWAIT)) { messages.append(message) }
        return messages
    }

    /// Whether a datagram arrives within `milliseconds`: for checking that *none* comes while
    /// something should keep it from coming. Leaves the datagram queued.
    func arrives(within milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&request, 1, milliseconds) } while ready < 0 && errno == EINTR
        return ready > 0
    }

    private func receive(flags: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, flags) }
        } while count < 0 && errno == EINTR
        guard count >= 0 else { return nil }  // EAGAIN: nothing queued, or the patience ran out
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
#endif
