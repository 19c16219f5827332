import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole-file reads and crash-safe whole-file writes, for gateways that keep a small document on disk.
///
/// ``write(_:to:permissions:)`` never leaves a half-written file: it writes a temporary file in
/// the same directory (created with the final permissions, so a secret is never readable by
/// others, not even for a moment), flushes it to disk with `fsync`, then `rename`s it over the
/// old file, which the system does atomically, and flushes the directory so the rename itself
/// survives a crash. A reader sees the old document or the new one, never a mix.
///
/// ```swift
/// try AtomicFile.write(try JSONEncoder().encode(document), to: path)
/// let bytes = try AtomicFile.read(path)   // nil when there is no file
/// ```
public nonisolated enum AtomicFile {
    /// Replaces the file at `path` with `data`, atomically.
    ///
    /// Creates the file's directory (and its parents) with permissions 0700 when it is missing.
    ///
    /// - Parameters:
    ///   - data: the new content.
    ///   - path: the file to replace or create.
    ///   - permissions: the new file's permissions, set exactly (the umask does not apply).
    /// - Throws: ``FileError`` naming the call that failed; the old file is then untouched and no
    ///   temporary file is left behind.
    public static func write(_ data: Data, to path: String, permissions: mode_t = 0o644) throws(FileError) {
        let directory =
            (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        try Directories.create(directory)
        let name = (path as NSString).lastPathComponent
        let temporary = "\(directory)/\(temporaryName(for: name, id: UUID()))"

        // O_EXCL: never write through a file (or a link) someone put at this name.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw FileError(operation: "open", path: temporary, code: errno) }
        do {
            // The mode given to open is reduced by the umask; set it exactly, before any byte is written.
            try check(fchmod(descriptor, permissions), "fchmod", temporary)
            try writeAll(data, to: descriptor, path: temporary)
            try check(fsync(descriptor), "fsync", temporary)
            try check(close(descriptor), "close", temporary)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileError(operation: "rename", path: path, code: code)
        }
        try syncDirectory(directory)
    }

    /// Removes the temporary files that writes to `path` left behind when the process was killed
    /// in the middle (`kill -9`, a power cut): `.<name>.<UUID>.tmp` beside the file.
    ///
    /// Call it when the app starts, before it writes: a write of this process in flight would
    /// lose its temporary file. The file itself is never touched, and neither is anything whose
    /// name does not have exactly that form.
    ///
    /// ```swift
    /// try AtomicFile.removeInterruptedWrites(of: "\(dataDirectory)/cities.json")
    /// ```
    ///
    /// - Parameter path: the file that ``write(_:to:permissions:)`` writes.
    /// - Returns: the names of the files removed.
    /// - Throws: ``FileError`` when the directory exists but cannot be listed, or a leftover
    ///   cannot be removed.
    @discardableResult
    public static func removeInterruptedWrites(of path: String) throws(FileError) -> [String] {
        let directory =
            (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let stream = opendir(directory) else {
            if errno == ENOENT { return [] }
            throw FileError(operation: "opendir", path: directory, code: errno)
        }
        defer { closedir(stream) }
        var leftovers: [String] = []
        while let entry = readdir(stream) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if isTemporaryName(entryName, for: name) { leftovers.append(entryName) }
        }
        for leftover in leftovers where unlink("\(directory)/\(leftover)") != 0 && errno != ENOENT {
            throw FileError(operation: "unlink", path: "\(directory)/\(leftover)", code: errno)
        }
        return leftovers.sorted()
    }

    /// `.<name>.<UUID>.tmp`: hidden, and named after the file it will replace.
    static func temporaryName(for name: String, id: UUID) -> String {
        ".\(name).\(id.uuidString).tmp"
    }

    /// Whether `candidate` is a temporary file of a write to `name`.
    static func isTemporaryName(_ candidate: String, for name: String) -> Bool {
        let prefix = ".\(name)."
        let suffix = ".tmp"
        guard candidate.hasPrefix(prefix), candidate.hasSuffix(suffix) else { return false }
        let middle = candidate.dropFirst(prefix.count).dropLast(suffix.count)
        return UUID(uuidString: String(middle)) != nil
    }

    /// Reads the whole file at `path`.
    ///
    /// - Parameter path: the file.
    /// - Returns: its content, or `nil` when there is no such file.
    /// - Throws: ``FileError`` when the file exists but cannot be read.
    public static func read(_ path: String) throws(FileError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0, errno == ENOENT { return nil }
        guard descriptor >= 0 else { throw FileError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                FileDescriptor.systemRead(descriptor, $0.baseAddress!, $0.count)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw FileError(operation: "read", path: path, code: errno) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(FileError) {
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = FileDescriptor.systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw FileError(operation: "write", path: path, code: failure) }
    }

    /// Flushes the directory entry, so that a rename survives a power cut.
    private static func syncDirectory(_ directory: String) throws(FileError) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(operation: "open", path: directory, code: errno) }
        defer { close(descriptor) }
        try check(fsync(descriptor), "fsync", directory)
    }

    private static func check(_ status: Int32, _ operation: String, _ path: String) throws(FileError) {
        if status != 0 { throw FileError(operation: operation, path: path, code: errno) }
    }
}
