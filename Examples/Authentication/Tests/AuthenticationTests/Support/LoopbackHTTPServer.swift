import Dispatch
import ExampleSupport
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the gateway's tests: canned answers per request line
/// (`POST /token`), one request per connection, blocking sockets, a thread per connection.
///
/// The OS picks the port. An answer marked ``Reply/held()`` waits until the test calls
/// ``release()``, or until the client closes the connection, which the server records (see
/// ``waitForClosedConnection(timeout:)``). Waits are on semaphores and `poll` with no timeout:
/// nothing sleeps. ``stop()`` ends every thread; tests call it before they return.
///
/// ```swift
/// let server = try LoopbackHTTPServer(routes: ["POST /token": .json(200, #"{"token": "t"}"#)])
/// defer { server.stop() }
/// ```
nonisolated final class LoopbackHTTPServer: Sendable {
    /// A canned answer.
    struct Reply: Sendable {
        /// The status code.
        var status: Int
        /// The body.
        var body: String
        /// Whether the answer waits for ``LoopbackHTTPServer/release()``.
        var isHeld = false

        /// An answer with a JSON (or any) body.
        static func json(_ status: Int, _ body: String = "") -> Reply {
            Reply(status: status, body: body)
        }

        /// This answer, sent only once the test releases it.
        func held() -> Reply {
            var reply = self
            reply.isHeld = true
            return reply
        }
    }

    /// A request as received.
    struct Request: Sendable, Equatable {
        /// `POST /token`.
        var line: String
        /// The headers, names lowercased.
        var headers: [String: String]
        /// The body as text.
        var body: String
    }

    private struct State {
        var requests: [Request] = []
        var isStopped = false
    }

    /// The port the server listens on.
    let port: UInt16
    private let listener: Int32
    private let routes: [String: Reply]
    private let state = Locked(State())
    private let received = DispatchSemaphore(value: 0)
    private let closed = DispatchSemaphore(value: 0)
    private let threads = DispatchGroup()
    /// Written once by ``release()``; never drained, so every held answer sees it.
    private let releasePipe: Pipe
    /// Written once by ``stop()``; never drained, so every thread sees it.
    private let stopPipe: Pipe

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The requests received so far, oldest first.
    var requests: [Request] { state.withLock { $0.requests } }

    /// Starts a server answering `routes` (keyed by request line, such as `GET /user`); any
    /// other request gets 404.
    ///
    /// - Throws: when the socket cannot be made, bound or listened on.
    init(routes: [String: Reply]) throws {
        self.routes = routes
        (listener, port) = try Self.makeListener()
        releasePipe = Pipe()
        stopPipe = Pipe()
        threads.enter()
        Thread { [self] in
            acceptConnections()
            threads.leave()
        }.start()
    }

    /// A port on 127.0.0.1 that nobody listens on: bound by the OS, read, then closed.
    static func unusedPort() throws -> UInt16 {
        let (listener, port) = try makeListener()
        close(listener)
        return port
    }

    /// Sends the held answers, and any later ones at once.
    func release() {
        releasePipe.fileHandleForWriting.write(Data([1]))
    }

    /// Waits until a request has arrived (the `n`th call waits for the `n`th request).
    ///
    /// - Returns: whether one arrived within `timeout` seconds.
    func waitForRequest(timeout: Double = 30) -> Bool {
        received.wait(timeout: .now() + timeout) == .success
    }

    /// Waits until a client has closed a connection whose answer was held.
    ///
    /// - Returns: whether that happened within `timeout` seconds.
    func waitForClosedConnection(timeout: Double = 30) -> Bool {
        closed.wait(timeout: .now() + timeout) == .success
    }

    /// Stops listening, drops held answers, and waits for every thread to end.
    ///
    /// - Returns: whether every thread ended within 30 seconds.
    @discardableResult
    func stop() -> Bool {
        let wasStopped = state.withLock { state in
            defer { state.isStopped = true }
            return state.isStopped
        }
        if !wasStopped { stopPipe.fileHandleForWriting.write(Data([1])) }
        return threads.wait(timeout: .now() + 30) == .success
    }

    deinit {
        close(listener)  // the threads hold the server: it goes once they ended
    }

    // MARK: - Serving

    private func acceptConnections() {
        while waitForInput(on: listener) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            #if canImport(Darwin)
            var one: Int32 = 1  // a client gone before its answer is no SIGPIPE
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            threads.enter()
            Thread { [self] in
                serve(connection)
                close(connection)
                threads.leave()
            }.start()
        }
    }

    private func serve(_ connection: Int32) {
        guard let request = Self.readRequest(from: connection) else { return }
        state.withLock { $0.requests.append(request) }
        received.signal()
        let reply = routes[request.line] ?? .json(404)
        if reply.isHeld {
            var fds = [
                pollfd(fd: connection, events: Int16(POLLIN), revents: 0),
                pollfd(fd: releasePipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopPipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            while poll(&fds, nfds_t(fds.count), -1) < 0, errno == EINTR {}
            if fds[0].revents != 0 {  // a client sends nothing after its request: this is its end
                var byte: UInt8 = 0
                if recv(connection, &byte, 1, Int32(MSG_PEEK)) <= 0 { closed.signal() }
                return
            }
            if fds[2].revents != 0 { return }
        }
        Self.sendReply(reply, to: connection)
    }

    /// Waits until `socket` can be read, or the server stops: `false` then.
    private func waitForInput(on socket: Int32) -> Bool {
        var fds = [
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopPipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while poll(&fds, nfds_t(fds.count), -1) < 0, errno == EINTR {}
        return fds[1].revents == 0
    }

    // MARK: - HTTP

    private static func readRequest(from connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        var expected = Int.max
        while bytes.count < expected {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            bytes += chunk[..<count]
            if headerEnd == nil, let start = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) {
                let end = start + separator.count
                headerEnd = end
                let length = headers(in: bytes[..<end])["content-length"].flatMap { Int($0) } ?? 0
                expected = end + length
            }
        }
        guard let headerEnd else { return nil }
        let head = String(decoding: bytes[..<headerEnd], as: UTF8.self)
        let line = head.prefix { $0 != "\r" }.split(separator: " ").prefix(2).joined(separator: " ")
        return Request(
            line: line, headers: headers(in: bytes[..<headerEnd]),
            body: String(decoding: bytes[headerEnd...], as: UTF8.self))
    }

    private static func headers(in head: ArraySlice<UInt8>) -> [String: String] {
        var headers: [String: String] = [:]
        for line in String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        return headers
    }

    private static func sendReply(_ reply: Reply, to connection: Int32) {
        let body = Array(reply.body.utf8)
        let head =
            "HTTP/1.1 \(reply.status) Canned\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        var bytes = Array(head.utf8) + body
        while !bytes.isEmpty {
            let sent = send(connection, bytes, bytes.count, noSignal)  // a client gone is no SIGPIPE
            guard sent > 0 else { return }
            bytes.removeFirst(sent)
        }
    }

    // MARK: - Sockets

    private static func makeListener() throws -> (socket: Int32, port: UInt16) {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw FileError(operation: "socket", path: "127.0.0.1", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound, listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw FileError(operation: "bind", path: "127.0.0.1", code: code)
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}

#if canImport(Darwin)
private nonisolated let streamSocket = SOCK_STREAM
private nonisolated let noSignal: Int32 = 0  // Darwin: SO_NOSIGPIPE is set on each connection instead
#else
private nonisolated let streamSocket = Int32(SOCK_STREAM.rawValue)
private nonisolated let noSignal = Int32(MSG_NOSIGNAL)
#endif
