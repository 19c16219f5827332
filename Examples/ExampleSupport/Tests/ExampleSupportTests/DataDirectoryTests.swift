import ExampleSupport
import Foundation
import ResponseKitTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite(.responseChecks)
struct DataDirectoryTests {
    @Test func usesXDGDataHome_whenItIsAnAbsolutePath() {
        let path = DataDirectory.path(for: "Cities", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ada"])

        #expect(path == "/data/ResponseKitExamples/Cities")
    }

    @Test func otherwise_usesTheHomeDirectorysLocalShare() {
        #expect(
            DataDirectory.path(for: "Cities", environment: ["HOME": "/home/ada"])
                == "/home/ada/.local/share/ResponseKitExamples/Cities")
        #expect(
            DataDirectory.path(for: "Cities", environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/ada"])
                == "/home/ada/.local/share/ResponseKitExamples/Cities")
    }

    // MARK: - Preparing

    @Test func preparing_createsTheDirectoryAndItsParents_readableOnlyByTheUser() throws {
        let directory = TemporaryDirectory()

        try DataDirectory.prepare(directory.path("a/b"))

        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path("a/b"))
        #expect(attributes[.posixPermissions] as? Int == 0o700)
    }

    @Test func preparing_aPathThroughARegularFile_failsNamingItAndTheReason() throws {
        let directory = TemporaryDirectory()
        try AtomicFile.write(Data("x".utf8), to: directory.path("plain"))

        #expect {
            try DataDirectory.prepare(directory.path("plain/data"))
        } throws: { error in
            "\(error)" == "mkdir \(directory.path("plain")): Not a directory"
        }
    }

    // Root may write anywhere, so the check has nothing to find there.
    @Test(.enabled(if: getuid() != 0, "root may write into a read-only directory"))
    func preparing_aDirectoryThatCannotBeWritten_failsNamingItAndTheReason() throws {
        let directory = TemporaryDirectory()
        try DataDirectory.prepare(directory.path("data"))
        chmod(directory.path("data"), 0o500)
        defer { chmod(directory.path("data"), 0o700) }

        #expect {
            try DataDirectory.prepare(directory.path("data"))
        } throws: { error in
            "\(error)" == "access \(directory.path("data")): Permission denied"
        }
    }
}
