import Dispatch
import ExampleSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of an example's executable, built beside the test bundle: standard input from
/// `/dev/null`, standard output and standard error into files of their own, then the exit status.
///
/// The output goes to files, not pipes, so nothing can wait for an end of file that never comes;
/// a child still running after 30 seconds (a broken executable) is killed, and the run reports
/// that instead of hanging.
struct ExecutableRun {
    /// What the executable wrote on standard output.
    let standardOutput: String
    /// What it wrote on standard error.
    let standardError: String
    /// Its exit status; `nil` when it was killed by a signal (or by the 30-second limit).
    let status: Int32?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `name` with `arguments` and waits for it to exit.
    ///
    /// - Throws: ``Failure`` when the executable is not built or cannot be started.
    init(_ name: String, _ arguments: [String]) throws {
        let path = try Self.locate(name)
        let directory = TemporaryDirectory()
        let (outPath, errPath) = (directory.path("out"), directory.path("err"))

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
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
        // AtomicFile.read, not String(contentsOfFile:): on Linux, swift-foundation's
        // readBytesFromFile leaks the buffer of a small file, which the leak checker reports.
        standardOutput = String(decoding: (try? AtomicFile.read(outPath)) ?? Data(), as: UTF8.self)
        standardError = String(decoding: (try? AtomicFile.read(errPath)) ?? Data(), as: UTF8.self)
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
