#if os(Linux)
import Glibc
#endif

/// glibc's view of the heap: the bytes malloc has handed out and not had back, headers and
/// rounding included, for M2.
///
/// Read through `malloc_info`, found with `dlsym`: `<malloc.h>` (and with it `mallinfo2`) is not
/// part of Swift's Glibc module, and importing it would need a C target in `Package.swift`.
/// `malloc_info` writes XML whose last block totals every arena.
enum MallocHeap {
    /// Bytes in use now: memory malloc got from the system, minus its free chunks, plus its
    /// mmapped chunks. `nil` where glibc's `malloc_info` is missing.
    static func bytesInUse() -> Int? {
        #if os(Linux)
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(nil, "malloc_info") else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        let status = unsafeBitCast(symbol, to: MallocInfo.self)(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { return nil }
        return bytesInUse(fromMallocInfo: String(cString: buffer))
        #else
        return nil
        #endif
    }

    /// Reads the process-wide totals that follow the last `</heap>` of `malloc_info`'s XML.
    static func bytesInUse(fromMallocInfo xml: String) -> Int? {
        guard let totals = xml.components(separatedBy: "</heap>").last else { return nil }
        func size(of element: String) -> Int? {
            guard let line = totals.split(separator: "\n").first(where: { $0.contains(element) }),
                let start = line.range(of: "size=\"")
            else { return nil }
            return Int(line[start.upperBound...].prefix { $0.isNumber })
        }
        guard let system = size(of: "<system type=\"current\""),
            let fast = size(of: "<total type=\"fast\""),
            let rest = size(of: "<total type=\"rest\"")
        else { return nil }
        return system - fast - rest + (size(of: "<total type=\"mmap\"") ?? 0)
    }

    /// Hands freed heap memory back to the system (`malloc_trim(0)`), so that the next M1
    /// reading starts from pages that are not resident.
    static func releaseFreedMemory() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}
