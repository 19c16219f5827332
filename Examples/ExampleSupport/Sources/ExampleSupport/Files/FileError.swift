#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A system call on a file failed: which, on what, and the system's reason.
public nonisolated struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, such as `open` or `rename`.
    public let operation: String
    /// The path it was given.
    public let path: String
    /// The `errno` it set.
    public let code: Int32

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - operation: the call that failed.
    ///   - path: the path it was given.
    ///   - code: the `errno` it set.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// `open /data/cities.json: Permission denied`.
    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(code)))"
    }
}
