import Dispatch
import Foundation
import ResponseKit

/// A process started for a test, with its standard output and error merged into one stream of
/// lines the test can wait for.
///
/// Every wait is bounded by a generous limit (30 seconds) that only matters when the code under
/// test is broken; nothing here sleeps. A process still running when the value goes away is
/// killed, so a failing test leaves no orphan.
final class ChildProcess {
    static let patience: DispatchTimeInterval = .seconds(30)

    private let process = Process()
    /// Everything the process wrote so far.
    private let output = LockedBox.make("")
    /// Signalled whenever output arrives, and once at its end.
    private let outputArrived = DispatchSemaphore(value: 0)
    /// Signalled once the pipe reached end of file: the process and its children closed it.
    private let outputEnded = DispatchSemaphore(value: 0)
    /// Signalled once the process exited.
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments`.
    init(_ executable: URL, arguments: [String]) throws {
        let pipe = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [output, outputArrived, outputEnded] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                outputEnded.signal()
            } else {
                output.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            outputArrived.signal()
        }
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }

    /// The complete lines written so far.
    var lines: [String] {
        let text = output.withLock { $0 }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits until the process has written `line`.
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

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits until the process has exited and its output has ended.
    ///
    /// - Returns: the exit status, or `nil` when the process was killed by a signal or did not
    ///   exit within 30 seconds.
    func waitForExit() -> Int32? {
        let deadline = DispatchTime.now() + Self.patience
        guard exited.wait(timeout: deadline) == .success,
            outputEnded.wait(timeout: deadline) == .success
        else { return nil }
        outputEnded.signal()
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }
}
