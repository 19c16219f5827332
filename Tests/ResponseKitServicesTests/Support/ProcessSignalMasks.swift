import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which signals a running process blocks, ignores and has pending, as Linux reports them in
/// `/proc/<pid>/status` (`SigBlk`, `SigIgn`, `ShdPnd`; bit N - 1 for signal N).
struct ProcessSignalMasks {
    let blocked: UInt64
    let ignored: UInt64
    /// Sent to the process (`kill`) and not yet delivered to any of its threads.
    let pending: UInt64

    /// Reads the masks of process `pid`; `nil` when it is gone or the system has no `/proc`.
    init?(pid: pid_t) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func mask(_ field: String) -> UInt64? {
            status.split(separator: "\n")
                .first { $0.hasPrefix("\(field):") }
                .flatMap { UInt64($0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) }
        }
        guard let blocked = mask("SigBlk"), let ignored = mask("SigIgn"), let pending = mask("ShdPnd") else {
            return nil
        }
        self.blocked = blocked
        self.ignored = ignored
        self.pending = pending
    }

    /// The bit of `signal` in a mask.
    static func bit(_ signal: Int32) -> UInt64 {
        1 << UInt64(signal - 1)
    }

    /// Waits until `signal`, sent to process `pid`, has been delivered (its handler ran, or is
    /// running), so that the next one cannot be merged with it: a bounded poll, since no event
    /// says so. Yields the processor between reads, so the process gets it.
    ///
    /// - Returns: `false` when the signal was still pending after 30 seconds, or `/proc` is unreadable.
    static func waitUntilDelivered(_ signal: Int32, to pid: pid_t) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            guard let masks = ProcessSignalMasks(pid: pid) else { return false }
            if masks.pending & bit(signal) == 0 { return true }
            sched_yield()
        }
        return false
    }
}
