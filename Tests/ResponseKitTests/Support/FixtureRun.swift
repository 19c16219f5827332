import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of `ResponseKitFixture` (built beside the test bundle: the test target depends on it),
/// for what only a process's end shows: output into unlinked temporary files (nothing waits for an
/// end of file), then the exit status. A child still running after 30 seconds, which only a broken
/// fixture does, is killed and reported as such.
struct FixtureRun {
    let standardOutput: String
    let standardError: String
    /// The exit status; `nil` when a signal ended it.
    let status: Int32?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws {
        let path = try Self.fixturePath()
        let (output, error) = (try Self.unlinkedFile(), try Self.unlinkedFile())
        defer {
            close(output)
            close(error)
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "posix_spawn: \(String(cString: strerror(spawned)))") }

        let watchdog = DispatchWorkItem { [pid] in kill(pid, SIGKILL) }  // only for a broken fixture
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1, errno == EINTR {}
        watchdog.cancel()
        status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : nil  // WIFEXITED, WEXITSTATUS
        standardOutput = Self.contents(of: output)
        standardError = Self.contents(of: error)
    }

    /// A temporary file already unlinked: it goes away with its last descriptor.
    private static func unlinkedFile() throws -> Int32 {
        var template = Array("\(NSTemporaryDirectory())/ResponseKitFixture-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw Failure(description: "mkstemp: \(String(cString: strerror(errno)))") }
        unlink(template)
        return descriptor
    }

    private static func contents(of descriptor: Int32) -> String {
        lseek(descriptor, 0, SEEK_SET)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Beside the running test executable (Linux), or the loaded test bundle (macOS).
    private static func fixturePath() throws -> String {
        var directories: [URL] = []
        #if canImport(Darwin)
        directories += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
        #endif
        if let executable = Bundle.main.executableURL {
            directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        let candidates = directories.map { $0.appendingPathComponent("ResponseKitFixture").path }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "ResponseKitFixture is not built; looked at \(candidates)")
        }
        return found
    }
}
