#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Directory creation with the system's own reason for a failure.
///
/// `FileManager.createDirectory` throws an error of its own and leaves `errno` as whatever the
/// last system call set, so a path through a regular file used to be reported as an
/// "Input/output error". `mkdir(2)`, one component at a time, says what went wrong ("Not a
/// directory", "Permission denied") and where.
nonisolated enum Directories {
    /// Creates `path` and any missing parents, each with `permissions`; succeeds when it exists.
    ///
    /// - Throws: ``FileError`` naming the component that could not be created and why.
    static func create(_ path: String, permissions: mode_t = 0o700) throws(FileError) {
        if isDirectory(path) { return }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/\(component)"
            if mkdir(prefix, permissions) == 0 { continue }
            let code = errno
            // An existing directory (or a link to one) is fine; anything else at that name is not.
            if code == EEXIST, isDirectory(prefix) { continue }
            throw FileError(operation: "mkdir", path: prefix, code: code == EEXIST ? ENOTDIR : code)
        }
    }

    /// Whether `path` names a directory, following links.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
