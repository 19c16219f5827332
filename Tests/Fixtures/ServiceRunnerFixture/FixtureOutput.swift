#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes one line to standard output with a single unbuffered `write`, so the test reading the
/// pipe sees each line as soon as it is said, and lines from this process never interleave.
func say(_ text: String) {
    var line = text
    line.append("\n")
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
