#if os(Linux)
import Glibc

/// Watches a process that need not be this one's child, to learn when it ends: a pidfd
/// (`pidfd_open`, Linux 5.3), which turns readable when the process exits, waited for with
/// `poll`: a real wait, no sleeping and no polling of `/proc`.
///
/// Open it while the process surely runs (before signalling its parent): a pidfd names that
/// process, never another that is given the same id later.
final class ProcessEndWatch {
    /// `pidfd_open` through `dlsym`: Swift's Glibc module does not import `<sys/pidfd.h>` (glibc
    /// 2.36), and `syscall` is variadic, which Swift cannot call.
    private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
    private static let pidfdOpen: PidfdOpen? = dlsym(nil, "pidfd_open").map { unsafeBitCast($0, to: PidfdOpen.self) }

    let pid: pid_t
    private let descriptor: Int32

    /// Watches `pid`; `nil` when it is gone already, or the system has no pidfds.
    init?(pid: pid_t) {
        guard let open = Self.pidfdOpen else { return nil }
        let descriptor = open(pid, 0)
        guard descriptor >= 0 else { return nil }
        self.pid = pid
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Waits until the process has ended (exited or been killed; it may still wait to be reaped).
    ///
    /// - Returns: `false` when it still ran after 30 seconds.
    func waitForEnd() -> Bool {
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat {
            ready = poll(&watched, 1, 30_000)
        } while ready == -1 && errno == EINTR
        return ready == 1
    }
}
#endif
