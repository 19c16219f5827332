import ExampleSupport
import Foundation
import ResponseKitTesting
import Testing

/// Atomic writes on real files, in a fresh directory per test.
@Suite(.responseChecks)
struct AtomicFileTests {
    let directory = TemporaryDirectory()

    func permissions(of path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func writesTheData_andReadsItBack() throws {
        try AtomicFile.write(Data("hello".utf8), to: directory.path("file"))

        #expect(try AtomicFile.read(directory.path("file")) == Data("hello".utf8))
    }

    @Test func readingAMissingFile_givesNil() throws {
        #expect(try AtomicFile.read(directory.path("missing")) == nil)
    }

    @Test func replacesTheOldContentWhole_leavingNoTemporaryFile() throws {
        let path = directory.path("file")
        try AtomicFile.write(Data("a much longer first version".utf8), to: path)

        try AtomicFile.write(Data("short".utf8), to: path)

        #expect(try AtomicFile.read(path) == Data("short".utf8))
        #expect(directory.entries == ["file"])
    }

    @Test(arguments: [0o600, 0o644])
    func setsExactlyThePermissionsAskedFor(mode: Int) throws {
        let path = directory.path("file")

        try AtomicFile.write(Data("x".utf8), to: path, permissions: mode_t(mode))

        #expect(try permissions(of: path) == mode)
    }

    @Test func replacingAFile_givesTheNewPermissions() throws {
        let path = directory.path("token")
        try AtomicFile.write(Data("x".utf8), to: path, permissions: 0o644)

        try AtomicFile.write(Data("y".utf8), to: path, permissions: 0o600)

        #expect(try permissions(of: path) == 0o600)
    }

    @Test func createsMissingDirectories_readableOnlyByTheUser() throws {
        let path = directory.path("a/b/file")

        try AtomicFile.write(Data("x".utf8), to: path)

        #expect(try AtomicFile.read(path) == Data("x".utf8))
        #expect(try permissions(of: directory.path("a")) == 0o700)
    }

    @Test func aFailedRename_throwsNamingIt_andLeavesNoTemporaryFile() throws {
        // A non-empty directory where the file should go: the final rename cannot replace it.
        try FileManager.default.createDirectory(
            atPath: directory.path("cities.json/inside"), withIntermediateDirectories: true)

        #expect {
            try AtomicFile.write(Data("x".utf8), to: directory.path("cities.json"))
        } throws: { error in
            (error as? FileError)?.operation == "rename"
        }
        #expect(directory.entries == ["cities.json"])
    }

    @Test func aPathThroughARegularFile_isReportedWithTheSystemsReason() throws {
        try AtomicFile.write(Data("x".utf8), to: directory.path("plain"))

        #expect {
            try AtomicFile.write(Data("x".utf8), to: directory.path("plain/sub/file"))
        } throws: { error in
            "\(error)" == "mkdir \(directory.path("plain")): Not a directory"
        }
    }

    // MARK: - Leftovers of interrupted writes

    @Test func removesTheTemporaryFilesThatInterruptedWritesLeft_andNothingElse() throws {
        let id = "0F3C2A7E-8B4D-4C51-9E7A-2D6B1F0A9C33"
        let keep = ["cities.json", ".cities.json.tmp", ".cities.json.notauuid.tmp", ".token.\(id).tmp", "notes"]
        for name in keep + [".cities.json.\(id).tmp"] {
            try AtomicFile.write(Data("x".utf8), to: directory.path(name))
        }

        let removed = try AtomicFile.removeInterruptedWrites(of: directory.path("cities.json"))

        #expect(removed == [".cities.json.\(id).tmp"])
        #expect(directory.entries == keep.sorted())
    }

    @Test func removingLeftovers_inADirectoryThatDoesNotExist_removesNothing() throws {
        #expect(try AtomicFile.removeInterruptedWrites(of: directory.path("missing/cities.json")).isEmpty)
    }
}
