import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of an executable of this package, built beside the test bundle (the test target
/// depends on it): standard input from `/dev/null`, standard output and standard error into
/// temporary files of their own, then the exit status. For what only a whole process shows: its
/// usage and exit status, what it prints at exit.
///
/// The output goes to files, unlinked at once, not pipes, so nothing waits for an end of file that
/// never comes; a child still running after 30 seconds (a broken executable) is killed, and the run
/// reports that instead of hanging. Shared by the test targets that run executables.
package struct ExecutableRun {
    /// What the executable wrote on standard output.
    package let standardOutput: String
    /// What it wrote on standard error.
    package let standardError: String
    /// Its exit status; `nil` when a signal ended it (or the 30-second limit).
    package let status: Int32?

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `name` with `arguments` and waits for it to exit.
    ///
    /// - Parameter environment: variables set for the child on top of this process's own
    ///   (`["TMPDIR": directory]`: where it makes its temporary files).
    /// - Throws: ``Failure`` when the executable is not built or cannot be started.
    package init(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let path = try Self.locate(name)
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
        // This process's variables, read from `environ` (not through Foundation), less those set.
        var inherited: [UnsafeMutablePointer<CChar>?] = []
        var variable = environ
        while let entry = variable.pointee {
            let name = String(cString: entry).prefix { $0 != "=" }
            if environment[String(name)] == nil { inherited.append(entry) }
            variable += 1
        }
        let set = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { for pointer in set { free(pointer) } }
        let envp = inherited + set + [nil]
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw Failure(description: "\(name) could not be started: \(String(cString: strerror(spawned)))")
        }

        // Only matters when the executable is broken and never exits.
        let watchdog = DispatchWorkItem { [pid] in kill(pid, SIGKILL) }
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
        var template = Array("\(NSTemporaryDirectory())/ExecutableRun-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw Failure(description: "mkstemp: \(String(cString: strerror(errno)))") }
        unlink(template)
        return descriptor
    }

    /// Everything written to `descriptor`, read with `read(2)`: on Linux, swift-foundation's
    /// file reading leaks the buffer of a small file, which the leak checker reports.
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

    /// The executable `name` in the build products directory, beside the test bundle.
    private static func locate(_ name: String) throws -> String {
        var directories: [URL] = []
        #if canImport(Darwin)
        // Only macOS loads the tests as a bundle. On Linux, swift-corelibs-foundation's
        // `CFBundleGetAllBundles` leaks its previous list on purpose, which the leak checker reports.
        directories += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
        #endif
        if let executable = Bundle.main.executableURL {
            directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        let candidates = directories.map { $0.appendingPathComponent(name).path }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "\(name) is not built (swift build builds it); looked at \(candidates)")
        }
        return found
    }
}
