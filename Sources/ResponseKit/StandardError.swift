#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes report lines without buffering, so a line is out even if the process dies or exits
/// next (a forced exit on a second signal, for one). `package` so that ResponseKitServices
/// reports the same way, and ResponseKitLoad draws its progress line.
package enum StandardError {
    /// Writes `text` and a newline to standard error, retrying interrupted writes.
    package static func writeLine(_ text: String) {
        writeWithoutNewline(text + "\n")
    }

    /// Writes `text` as it is (a progress line redrawn in place has no newline), retrying
    /// interrupted writes.
    package static func writeWithoutNewline(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
