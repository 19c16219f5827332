import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an example keeps its files between runs.
public nonisolated enum DataDirectory {
    /// `$XDG_DATA_HOME/ResponseKitExamples/<app>`, or `~/.local/share/ResponseKitExamples/<app>`
    /// when `XDG_DATA_HOME` is not set: the per-user data directory of the freedesktop.org
    /// convention, outside the repository, so runs never dirty the working tree.
    ///
    /// - Parameters:
    ///   - app: the example's name, such as `Cities`.
    ///   - environment: the process environment; the real one by default.
    /// - Returns: the directory's path; it may not exist yet (writes create it).
    public static func path(for app: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = "\(environment["HOME"] ?? NSHomeDirectory())/.local/share"
        }
        return "\(base)/ResponseKitExamples/\(app)"
    }

    /// Makes sure an app can keep its files in `path`: creates it (and its parents) with
    /// permissions 0700 when missing, then checks that this process may create files in it.
    ///
    /// Call it when the app starts, so that a directory that cannot be used is reported at once,
    /// naming it and the system's reason, instead of every save failing later.
    ///
    /// ```swift
    /// do {
    ///     try DataDirectory.prepare(directory)
    /// } catch {
    ///     print("cannot keep data in \(directory): \(error)")   // mkdir /data: Permission denied
    /// }
    /// ```
    ///
    /// - Parameter path: the directory.
    /// - Throws: ``FileError``: `mkdir` when it cannot be created (a parent that is a regular
    ///   file, no permission), `access` when it exists but cannot be written.
    public static func prepare(_ path: String) throws(FileError) {
        try Directories.create(path)
        if access(path, W_OK | X_OK) != 0 { throw FileError(operation: "access", path: path, code: errno) }
    }
}
