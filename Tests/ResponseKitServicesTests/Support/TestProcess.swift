import Dispatch
import Foundation
import ResponseKit

@testable import ResponseKitServices

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A process started for a test, with its standard output and error merged into one stream of
/// lines the test can wait for. (Not the library's `ChildProcess`, which this one tests.)
///
/// Started with `posix_spawn` rather than Foundation's `Process`: with `Process` on Linux
/// (Swift 6.3) a child's output sometimes never reached end of file after the child exited
/// (about one run in ten; the test process itself still held a descriptor of the pipe). Here the
/// pipe is ours: its ends are close-on-exec, the child gets the write end as fds 1 and 2 only,
/// and we close our copy right after spawning. The child starts with no blocked signals and
/// default SIGINT/SIGTERM handling, whatever thread spawns it.
///
/// Every wait is bounded by a generous limit (30 seconds) that only matters when the code under
/// test is broken; nothing here sleeps. A child still running when the value goes away is killed.
final class TestProcess: Sendable {
    static let patience: DispatchTimeInterval = .seconds(30)

    struct SpawnFailed: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "posix_spawn failed: \(String(cString: strerror(code)))" }
    }

    let pid: pid_t
    /// The write end of the child's standard input, when the test writes to it; else /dev/null.
    private let input: Int32?
    /// Everything the child wrote so far.
    private let output = LockedBox.make([UInt8]())
    /// Signalled whenever output arrives, and once at its end.
    private let outputArrived = DispatchSemaphore(value: 0)
    /// Signalled once the pipe reached end of file: every holder of the write end closed it.
    private let outputEnded = DispatchSemaphore(value: 0)
    /// The raw `waitpid` status, once the child has exited.
    private let waitStatus = LockedBox<Int32?>.make(nil)
    /// Signalled once the child has exited and been reaped.
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments` and this process's environment, without systemd's
    /// variables, and with `environment` added.
    ///
    /// - Parameter takesInput: whether the test writes to the child's standard input
    ///   (``write(_:)``); otherwise it reads /dev/null.
    init(
        _ executable: URL, arguments: [String], environment: [String: String] = [:], takesInput: Bool = false
    ) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnFailed(code: errno) }
        // A socket pair rather than a pipe, so that a write to a child that has exited fails with
        // EPIPE (`MSG_NOSIGNAL`) instead of raising SIGPIPE in the test process.
        var inputEnds: [Int32] = [-1, -1]
        if takesInput, socketpair(AF_UNIX, Self.streamSocket, 0, &inputEnds) != 0 {
            close(ends[0])
            close(ends[1])
            throw SpawnFailed(code: errno)
        }
        for end in ends + inputEnds where end >= 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (readEnd, writeEnd) = (ends[0], ends[1])

        // Without systemd's variables, as `ChildProcess` starts its children: a test run under
        // systemd must not have its children notify the supervisor of the test run.
        var variables = ChildProcess.inheritedEnvironment(ProcessInfo.processInfo.environment)
        variables.merge(environment) { _, new in new }
        let spawned = Self.spawn(
            executable.path, arguments: arguments, environment: variables, input: takesInput ? inputEnds[0] : nil,
            output: writeEnd)
        close(writeEnd)
        if takesInput { close(inputEnds[0]) }
        input = takesInput ? inputEnds[1] : nil
        let pid: pid_t
        switch spawned {
        case .success(let spawnedID):
            pid = spawnedID
        case .failure(let error):
            close(readEnd)
            if let input { close(input) }
            throw error
        }
        self.pid = pid

        Thread.detachNewThread { [output, outputArrived, outputEnded] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                output.withLock { $0.append(contentsOf: buffer[..<count]) }
                outputArrived.signal()
            }
            close(readEnd)
            outputEnded.signal()
            outputArrived.signal()
        }
        Thread.detachNewThread { [waitStatus, exited] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            waitStatus.withLock { $0 = status }
            exited.signal()
        }
    }

    deinit {
        if let input { close(input) }
        if waitStatus.withLock({ $0 }) == nil {
            kill(pid, SIGKILL)  // the waiting thread reaps it
        }
    }

    /// The complete lines written so far.
    var lines: [String] {
        let text = String(decoding: output.withLock { $0 }, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits until the child has written `line`.
    ///
    /// - Returns: `false` when the output ended, or 30 seconds passed, without it.
    func waitForLine(_ line: String) -> Bool {
        let deadline = DispatchTime.now() + Self.patience
        while !lines.contains(line) {
            if outputEnded.wait(timeout: .now()) == .success {
                outputEnded.signal()
                return lines.contains(line)
            }
            if outputArrived.wait(timeout: deadline) == .timedOut { return false }
        }
        return true
    }

    #if canImport(Glibc)
    private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let streamSocket = SOCK_STREAM
    private static let noSignal: Int32 = 0  // Darwin: SO_NOSIGPIPE would be needed; no test there writes
    #endif

    /// Writes `line` and a newline to the child's standard input; the child must take input.
    func writeLine(_ line: String) {
        guard let input else { preconditionFailure("TestProcess: started without takesInput") }
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { sendBytes($0, to: input, flags: Self.noSignal) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits until the child has exited and its output has ended.
    ///
    /// - Returns: the exit status, or `nil` when the child was killed by a signal or did not
    ///   exit within 30 seconds.
    func waitForExit() -> Int32? {
        let deadline = DispatchTime.now() + Self.patience
        guard exited.wait(timeout: deadline) == .success, outputEnded.wait(timeout: deadline) == .success else {
            return nil
        }
        exited.signal()
        outputEnded.signal()
        guard let status = waitStatus.withLock({ $0 }),
            case .exited(let exitStatus) = ChildProcess.Termination(waitStatus: status)
        else { return nil }
        return exitStatus
    }

    /// Spawns `path` with stdin from `input` (or /dev/null) and stdout and stderr to `output`.
    private static func spawn(
        _ path: String, arguments: [String], environment: [String: String], input: Int32?, output: Int32
    ) -> Result<pid_t, SpawnFailed> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)

        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGINT)
        sigaddset(&defaultSignals, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + variables { free(pointer) } }

        var pid = pid_t()
        let error = posix_spawn(&pid, path, &actions, &attributes, argv, variables)
        return error == 0 ? .success(pid) : .failure(SpawnFailed(code: error))
    }
}

/// `send(2)`, out of the way of ``TestProcess/send(_:)``, which sends a signal.
private func sendBytes(_ bytes: UnsafeRawBufferPointer, to socket: Int32, flags: Int32) -> Int {
    send(socket, bytes.baseAddress, bytes.count, flags)
}
