import Dispatch
import Foundation
import ResponseKit
import Testing

@testable import ResponseKitServices

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ChildProcess` with real programs (`/bin/sleep`, `/bin/sh`): their signal masks as Linux
/// reports them, how they end, what they inherit. Every wait is on the child's termination, or
/// a pipe, with a generous limit that only matters when the code is broken.
///
/// Serialized: a few real children at a time are enough for a two-core machine.
@Suite(.serialized)
struct ChildProcessTests {
    static let patience = Duration.seconds(30)

    // MARK: - Signal mask and actions

    #if os(Linux)
    @Test func aChildStartedFromADispatchWorker_blocksNoSignal_andIgnoresNone() throws {
        let child = try onDispatchWorker { try ChildProcess.spawn("/bin/sleep", arguments: ["300"]) }
        defer { child.end() }

        // `spawn` returns once the program runs: these are /bin/sleep's masks, not the fork's.
        let masks = try #require(ProcessSignalMasks(pid: child.processIdentifier))
        #expect(masks.blocked == 0, "SigBlk: \(String(masks.blocked, radix: 16))")
        #expect(masks.ignored == 0, "SigIgn: \(String(masks.ignored, radix: 16))")
    }

    /// The control: what the test above would see without `ChildProcess`.
    @Test func aFoundationProcessStartedFromADispatchWorker_blocksSIGTERM() throws {
        let child = try onDispatchWorker { () throws -> pid_t in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sleep")
            process.arguments = ["300"]
            try process.run()
            return process.processIdentifier
        }
        defer { kill(child, SIGKILL) }  // a SIGTERM would stay blocked

        let masks = try #require(ProcessSignalMasks(pid: child))
        #expect(masks.blocked & ProcessSignalMasks.bit(SIGTERM) != 0, "SigBlk: \(String(masks.blocked, radix: 16))")
    }
    #endif

    #if os(Linux)
    /// Linux sends the parent-death signal when the *thread* that forked the child ends, and
    /// libdispatch ends idle workers: a child must not die with the thread that asked for it.
    @Test func aChildStartedFromAThreadThatThenEnds_keepsRunning() throws {
        let input = try TestPipe()
        let output = try TestPipe()
        let started = LockedBox<(child: ChildProcess, thread: String)?>.make(nil)
        let done = DispatchSemaphore(value: 0)
        let descriptors: [Int32: Int32] = [0: input.readEnd, 1: output.writeEnd]
        Thread.detachNewThread {
            let child = try? ChildProcess.spawn(
                "/bin/sh", arguments: ["-c", "echo ready; read line; echo alive"], descriptors: descriptors)
            let thread = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            started.withLock { $0 = child.map { ($0, thread) } }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 30) == .success)
        let (child, thread) = try #require(started.withLock { $0 })
        defer { child.end() }
        output.closeWriteEnd()
        try #require(output.readLine() == "ready")

        // Gone from /proc once the kernel has finished its exit, parent-death signals included: a
        // bounded poll, since no event says so.
        let deadline = ContinuousClock.now + Self.patience
        while FileManager.default.fileExists(atPath: "/proc/\(thread)"), ContinuousClock.now < deadline {
            sched_yield()
        }
        try #require(!FileManager.default.fileExists(atPath: "/proc/\(thread)"), "the thread \(thread) ended")
        input.send("go\n")

        // A SIGTERM sent at the thread's end would have ended the shell in its `read`.
        #expect(output.readLine() == "alive")
    }
    #endif

    #if os(Linux)
    @Test func theThreadThatStartsChildren_isNamed_forPsAndTop() throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["300"])
        defer { child.end() }
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        let names = tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
        #expect(names.contains("child spawner\n"), "the threads' names: \(names)")
    }
    #endif

    // MARK: - Ending

    @Test func end_endsAChildWithSIGTERM() throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["300"])

        #expect(try child.end().wait(timeout: Self.patience) == .killed(by: SIGTERM))
    }

    @Test func end_sendsSIGKILLAfterTheGracePeriod_toAChildThatIgnoresSIGTERM() throws {
        let output = try TestPipe()
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", "trap '' TERM; echo ready; exec /bin/sleep 300"],
            descriptors: [1: output.writeEnd], gracePeriod: .milliseconds(200))
        output.closeWriteEnd()
        try #require(output.readLine() == "ready", "the shell ignores SIGTERM from now on")
        #if os(Linux)
        let masks = try #require(ProcessSignalMasks(pid: child.processIdentifier))
        #expect(masks.ignored == ProcessSignalMasks.bit(SIGTERM), "SigIgn: \(String(masks.ignored, radix: 16))")
        #endif
        let clock = ContinuousClock()
        let start = clock.now

        let termination = try child.end().wait(timeout: Self.patience)

        #expect(termination == .killed(by: SIGKILL))
        #expect(clock.now - start >= .milliseconds(200), "SIGKILL only after the grace period")
    }

    @Test func endingTwice_sendsNothingMore_andAnswersWithTheSameTermination() throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["300"])

        let first = try child.end().wait(timeout: Self.patience)
        let second = try child.end().wait(timeout: Self.patience)

        #expect(first == .killed(by: SIGTERM))
        #expect(second == first)
    }

    @Test func signal_reachesTheChild() throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["300"])

        child.signal(SIGINT)

        #expect(try child.termination.wait(timeout: Self.patience) == .killed(by: SIGINT))
    }

    // MARK: - Termination

    @Test func termination_carriesTheExitStatus() throws {
        let child = try ChildProcess.spawn("/bin/sh", arguments: ["-c", "exit 3"])

        #expect(try child.termination.wait(timeout: Self.patience) == .exited(status: 3))
        #expect(Termination.exited(status: 3).description == "exited with status 3")
        #expect(Termination.killed(by: SIGTERM).description == "killed by SIGTERM")
    }

    @Test func cancellingOneReadersTermination_leavesTheOthersToHearIt() throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["300"])
        let cancelled = child.termination
        let other = child.termination

        cancelled.cancel()
        child.end()

        #expect(try other.wait(timeout: Self.patience) == .killed(by: SIGTERM))
    }

    @Test func aProgramThatDoesNotExist_throwsENOENT() {
        let error = #expect(throws: ChildProcessError.self) { try ChildProcess.spawn("/nonexistent/program") }

        #expect(error?.code == ENOENT)
        #expect(error?.description == "cannot start /nonexistent/program: No such file or directory")
    }

    // MARK: - What the child inherits

    @Test func theChildGetsTheEnvironmentItIsGiven() throws {
        let child = try ChildProcess.spawn("/bin/sh", arguments: ["-c", "exit $CODE"], environment: ["CODE": "7"])

        #expect(try child.termination.wait(timeout: Self.patience) == .exited(status: 7))
    }

    @Test func theInheritedEnvironment_leavesOutSystemdsVariables() {
        let environment = [
            "NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1",
            "PATH": "/usr/bin", "MEMORY_PRESSURE_WATCH": "/sys/fs/cgroup/app.service/memory.pressure",
        ]

        #expect(
            ChildProcess.inheritedEnvironment(environment) == [
                "PATH": "/usr/bin", "MEMORY_PRESSURE_WATCH": "/sys/fs/cgroup/app.service/memory.pressure",
            ])
    }

    @Test func theChildGetsADescriptorUnderTheNumberItIsGiven() throws {
        let output = try TestPipe()
        let child = try ChildProcess.spawn(
            "/bin/sh", arguments: ["-c", "echo five >&5"], descriptors: [5: output.writeEnd])
        output.closeWriteEnd()

        #expect(output.readLine() == "five")
        #expect(try child.termination.wait(timeout: Self.patience) == .exited(status: 0))
    }

    @Test func theChildGetsNoDescriptorItIsNotGiven_evenOneThatIsNotCloseOnExec() throws {
        let leaked = try TestPipe(closeOnExec: false)
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["300"])
        defer { child.end() }

        leaked.closeWriteEnd()

        // End of file at once: no other process holds the write end. The child would, had it
        // inherited it, until it ends in 300 seconds.
        #expect(leaked.readLine() == nil)
        #expect(!leaked.timedOut)
    }
}

private typealias Termination = ChildProcess.Termination

/// Runs `body` on a Dispatch worker thread, whose signal mask blocks nearly every signal, and
/// waits for it.
private func onDispatchWorker<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) throws -> Value {
    let result = LockedBox<Result<Value, any Error>?>.make(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        let outcome = Result { try body() }
        result.withLock { $0 = outcome }
        done.signal()
    }
    guard done.wait(timeout: .now() + 30) == .success, let outcome = result.withLock({ $0 }) else {
        throw NeverFinished()
    }
    return try outcome.get()
}

/// A pipe whose read end the test reads with a limit.
private final class TestPipe {
    let readEnd: Int32
    private(set) var writeEnd: Int32
    /// Whether a read gave up after 30 seconds.
    private(set) var timedOut = false

    init(closeOnExec: Bool = true) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if closeOnExec { for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        closeWriteEnd()
    }

    /// Writes `text` to the write end.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
    }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    /// The first line, without its newline; `nil` at end of file before a newline, or after 30
    /// seconds (``timedOut``).
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            var watched = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, 30_000)
            if ready == -1, errno == EINTR { continue }
            guard ready == 1 else {
                timedOut = true
                return nil
            }
            var byte: UInt8 = 0
            let count = read(readEnd, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
