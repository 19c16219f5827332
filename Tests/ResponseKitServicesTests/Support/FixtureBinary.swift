import Foundation

/// Finds the `ServiceRunnerFixture` executable, which SwiftPM builds before the tests (the test
/// target depends on it) into the same directory as the test bundle.
enum FixtureBinary {
    static let name = "ServiceRunnerFixture"

    /// The fixture's location.
    ///
    /// - Throws: ``NotFound`` listing where it looked.
    static func url() throws -> URL {
        let candidates = searchDirectories().map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotFound(searched: candidates.map(\.path))
        }
        return found
    }

    /// Where the test bundle may be, most specific first:
    /// - a loaded `.xctest` bundle (macOS, where `xctest` loads the bundle);
    /// - the running executable (Linux, where the `.xctest` file is itself the executable);
    /// - the first command-line argument, as a last resort.
    private static func searchDirectories() -> [URL] {
        var directories: [URL] = []
        #if canImport(Darwin)
        // Only macOS loads the tests as a bundle. On Linux, swift-corelibs-foundation's
        // `CFBundleGetAllBundles` deliberately leaks its previous list whenever the list changed
        // (its own comment says so), which the leak checker reports on every call.
        directories += Bundle.allBundles
            .filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
        #endif
        if let executable = Bundle.main.executableURL {
            directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        return directories
    }

    struct NotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "\(FixtureBinary.name) not found; looked at: \(searched.joined(separator: ", "))"
        }
    }
}
