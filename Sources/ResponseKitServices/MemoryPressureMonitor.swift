import CResponseKitServices
import Dispatch
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if os(Linux)
/// Watches a pressure-stall (PSI) file whose trigger is written, and reports each time the kernel
/// says the threshold was crossed: the only code that touches the file.
///
/// Why a thread of its own, blocked in `poll(2)`: the kernel signals a crossed trigger as
/// `POLLPRI`, and a Dispatch read source watches only readability, which a PSI file always has
/// (`poll` returns `POLLIN` at once, forever). Nesting the file in an `epoll` instance that a
/// read source watches would work, but the PSI file clears its event when polled, by whichever
/// poller asks first, Dispatch's included: a report could be consumed before we saw it. So one
/// thread waits in `poll` on two descriptors: the PSI file, for `POLLPRI`, and one end of a socket
/// pair, for ``stop()``, which writes a byte to the other end and waits for the thread to return;
/// only then are the descriptors closed, so the thread never polls a closed (or reused) one.
///
/// Reports reach `report` on the main queue: ``Event/pressure(at:)``, with the time the kernel
/// woke the thread, and ``Event/ended(reason:)`` once, should the kernel end the watch (`POLLERR`:
/// the cgroup was removed, PSI was turned off).
///
/// Made, stopped and released on one thread (the runner's main actor); not Sendable. Released
/// without ``stop()``, it stops.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class MemoryPressureMonitor {
    /// Why the file could not be watched: the kernel's refusal, with its `errno` text.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The watched file's path (or the name a test gave its stand-in).
    let name: String
    private let descriptor: Int32
    /// The socket pair that ends the thread's `poll`: the thread watches `wakeReceiver`.
    private let wakeReceiver: Int32
    private let wakeSender: Int32
    /// Signalled by the thread as it returns: ``stop()`` waits for it before closing anything.
    private let finished: DispatchSemaphore
    private var isStopped = false

    /// Opens `file` (`O_RDWR | O_NONBLOCK | O_CLOEXEC`), writes its trigger, and starts watching.
    ///
    /// - Parameters:
    ///   - file: the PSI file and its trigger.
    ///   - report: told each crossing, on the main queue.
    /// - Throws: ``Failure`` when the file cannot be opened (`ENOENT`, `EACCES`) or refuses the
    ///   trigger (`EINVAL` for a window the kernel does not allow this process, `EPERM`, or
    ///   `EOPNOTSUPP` without PSI). Nothing is left open then.
    convenience init(file: MemoryPressureFile, report: @escaping @Sendable (Event) -> Void) throws(Failure) {
        let descriptor = open(file.path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(file.path): \(Self.lastError)") }
        let bytes = file.triggerBytes
        var written: Int
        repeat {
            written = write(descriptor, bytes, bytes.count)
        } while written < 0 && errno == EINTR
        guard written == bytes.count else {
            let reason = written < 0 ? Self.lastError : "wrote \(written) of \(bytes.count) bytes"
            close(descriptor)
            throw Failure(description: "\(file.path) refused the trigger \"\(file.trigger)\": \(reason)")
        }
        try self.init(watching: descriptor, for: Int16(POLLPRI), name: file.path, report: report)
    }

    /// Watches `descriptor`, which the monitor owns from now on, for `events`: `POLLPRI` for a
    /// PSI file; tests pass a pipe with `POLLIN` to stand in for the kernel.
    ///
    /// After each report the thread reads what `descriptor` holds, without waiting: a PSI file
    /// clears its event itself when polled (the read returns its averages, unused), while a
    /// stand-in must be drained or it would stay ready.
    ///
    /// - Throws: ``Failure`` when no socket pair can be made; `descriptor` is closed then.
    init(
        watching descriptor: Int32, for events: Int16, name: String, report: @escaping @Sendable (Event) -> Void
    ) throws(Failure) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            let reason = Self.lastError
            close(descriptor)
            throw Failure(description: "no socket pair to stop watching \(name): \(reason)")
        }
        let finished = DispatchSemaphore(value: 0)
        self.name = name
        self.descriptor = descriptor
        self.wakeReceiver = ends[0]
        self.wakeSender = ends[1]
        self.finished = finished
        let wakeReceiver = ends[0]
        let thread = Thread {
            // So that `ps -L` and `top -H` show what it is: at most 15 bytes, or Linux keeps no name.
            // Named by the thread itself, through pthreads: Foundation's `Thread.name`, set here,
            // once left it unnamed under the thread sanitizer (a test looks for it by name).
            rks_name_current_thread("memory pressure")
            let reason = MemoryPressureMonitor.watch(descriptor, for: events, until: wakeReceiver, report: report)
            if let reason {
                DispatchQueue.main.async { report(.ended(reason: "\(name): \(reason)")) }
            }
            finished.signal()
        }
        thread.start()
    }

    deinit {
        stop()
    }

    /// Ends the thread, waits until it has returned, and closes the descriptors. Reports already
    /// queued on the main queue still arrive. Later calls do nothing.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        let byte: [UInt8] = [1]
        _ = send(wakeSender, byte, 1, Int32(MSG_NOSIGNAL))
        finished.wait()  // a moment: the thread returns as soon as `poll` sees the byte
        close(descriptor)
        close(wakeReceiver)
        close(wakeSender)
    }

    /// The thread's loop: reports each of `events` on `descriptor` until `wake` is readable.
    ///
    /// - Returns: `nil` when stopped; why the watch ended otherwise.
    private static func watch(
        _ descriptor: Int32, for events: Int16, until wake: Int32, report: @escaping @Sendable (Event) -> Void
    ) -> String? {
        var watched = [
            pollfd(fd: descriptor, events: events, revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        var scratch = [UInt8](repeating: 0, count: 256)
        while true {
            if poll(&watched, 2, -1) < 0 {
                if errno == EINTR { continue }
                return "poll failed: \(lastError)"
            }
            if watched[1].revents != 0 { return nil }
            let seen = watched[0].revents
            // A PSI file without its trigger (PSI off, the cgroup gone) says POLLERR with POLLPRI.
            if seen & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return "the kernel ended the watch" }
            if seen & events != 0 {
                let now = ContinuousClock.now
                _ = read(descriptor, &scratch, scratch.count)
                DispatchQueue.main.async { report(.pressure(at: now)) }
            }
        }
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}

#elseif canImport(Darwin)
/// Reports the system's memory pressure from Dispatch's memory-pressure source (warning and
/// critical levels), on the main queue. Apple platforms have no PSI trigger to set.
///
/// Made, stopped and released on one thread (the runner's main actor); released, it stops.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class MemoryPressureMonitor {
    /// What is watched, for the log.
    let name = "Dispatch's memory-pressure source"
    private let source: any DispatchSourceMemoryPressure

    /// Starts watching.
    ///
    /// - Parameter report: told each warning or critical level, on the main queue.
    init(report: @escaping @Sendable (Event) -> Void) {
        source = DispatchSource.makeMemoryPressureSource(eventMask: [.warning, .critical], queue: .main)
        source.setEventHandler { report(.pressure(at: .now)) }
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// Stops the source; later calls do nothing.
    func stop() {
        source.cancel()
    }
}
#endif

#if os(Linux) || canImport(Darwin)
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension MemoryPressureMonitor {
    /// What the monitor tells the runner.
    enum Event: Equatable {
        /// The system (or the process's cgroup) is short of memory, as seen at this time.
        case pressure(at: ContinuousClock.Instant)
        /// The kernel ended the watch, for this reason: no more reports.
        case ended(reason: String)
    }
}
#endif
