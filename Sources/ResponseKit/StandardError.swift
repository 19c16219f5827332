#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes report lines without buffering, so a line is out even if the process dies or exits
/// next (a forced exit on a second signal, for one). `package` so that ResponseKitServices
/// reports the same way.
package enum StandardError {
    /// Writes `text` and a newline to standard error, retrying interrupted writes.
    package static func writeLine(_ text: String) {
        var line = text
        line.append("\n")
        line.withUTF8 { bytes in
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
