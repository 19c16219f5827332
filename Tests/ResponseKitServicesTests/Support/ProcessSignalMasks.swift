import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which signals a running process blocks and ignores, as Linux reports them in
/// `/proc/<pid>/status` (`SigBlk` and `SigIgn`, bit N - 1 for signal N).
struct ProcessSignalMasks {
    let blocked: UInt64
    let ignored: UInt64

    /// Reads the masks of process `pid`; `nil` when it is gone or the system has no `/proc`.
    init?(pid: pid_t) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func mask(_ field: String) -> UInt64? {
            status.split(separator: "\n")
                .first { $0.hasPrefix("\(field):") }
                .flatMap { UInt64($0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) }
        }
        guard let blocked = mask("SigBlk"), let ignored = mask("SigIgn") else { return nil }
        self.blocked = blocked
        self.ignored = ignored
    }

    /// The bit of `signal` in a mask.
    static func bit(_ signal: Int32) -> UInt64 {
        1 << UInt64(signal - 1)
    }
}
