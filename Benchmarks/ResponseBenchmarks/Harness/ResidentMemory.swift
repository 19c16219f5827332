#if os(Linux)
import Glibc
#endif

/// Resident memory of this process: what M1 reads before and after holding a million responses.
enum ResidentMemory {
    /// Bytes resident now, from `/proc/self/statm`; `nil` where that file does not exist.
    static func bytes() -> Int? {
        #if os(Linux)
        let file = open("/proc/self/statm", O_RDONLY)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "size resident shared text lib data dt", in pages.
        let fields = String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
        #else
        return nil
        #endif
    }
}
