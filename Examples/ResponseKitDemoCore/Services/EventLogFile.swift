import Dispatch
import ExampleSupport
import ResponseKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An append-only text file that lines are written to safely, off the main thread.
///
/// - One serial queue does all the writing, so batches never interleave within this process.
/// - Each batch is one `write` to a descriptor opened with `O_APPEND`, so it lands at the end of
///   the file whole, even with other processes appending (regular files, local file systems).
/// - `fsync` runs before the batch is reported written, so a written batch survives a crash.
///
/// Also used by `Tests/Fixtures/ServiceRunnerFixture`, the process the services tests signal.
public nonisolated final class EventLogFile: Sendable {
    /// The file's path.
    public let path: String
    private let queue: DispatchQueue

    /// Makes a log file; nothing touches the disk before ``prepare()``.
    ///
    /// - Parameter path: the file; its directory must exist.
    public init(path: String) {
        self.path = path
        self.queue = DispatchQueue(label: "EventLogFile \(path)")
    }

    /// Creates the file unless it exists, and checks that it can be appended to.
    ///
    /// - Returns: a response that fails with a `FileError` when the file cannot be opened.
    public func prepare() -> Response<Void> {
        Response(on: queue, executor: .immediate) { [path] in
            let descriptor = try Self.openForAppending(path)
            close(descriptor)
        }
    }

    /// Appends `lines`, each followed by a newline, as one batch.
    ///
    /// - Parameter lines: the lines, without newlines.
    /// - Returns: a response that succeeds once the batch is on disk.
    public func append(_ lines: [String]) -> Response<Void> {
        Response(on: queue, executor: .immediate) { [path] in
            guard !lines.isEmpty else { return }
            let descriptor = try Self.openForAppending(path)
            defer { close(descriptor) }
            var text = lines.joined(separator: "\n")
            text.append("\n")
            try text.withUTF8 { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw FileError(operation: "write", path: path, code: errno)
                    }
                    offset += written
                }
            }
            if fsync(descriptor) != 0 {
                throw FileError(operation: "fsync", path: path, code: errno)
            }
        }
    }

    private static func openForAppending(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError(operation: "open", path: path, code: errno) }
        return descriptor
    }
}
