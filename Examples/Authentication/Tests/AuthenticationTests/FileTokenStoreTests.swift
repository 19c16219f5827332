import AuthenticationCore
import ExampleSupport
import Foundation
import ResponseKitTesting
import Testing

/// The token file on real files, in a fresh directory per test.
@Suite(.responseChecks)
struct FileTokenStoreTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("session/token") }

    func permissions(of path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func theTokenFile_isReadableAndWritableByTheOwnerOnly() throws {
        try FileTokenStore(path: path).save(AuthToken(value: "tk_1"))

        #expect(try permissions(of: path) == 0o600)
    }

    @Test func itsNewDirectory_isOpenToTheOwnerOnly() throws {
        try FileTokenStore(path: path).save(AuthToken(value: "tk_1"))

        #expect(try permissions(of: directory.path("session")) == 0o700)
    }

    @Test func replacingAFileThatOthersCouldRead_makesItPrivate() throws {
        try FileManager.default.createDirectory(atPath: directory.path("session"), withIntermediateDirectories: true)
        try #require(
            FileManager.default.createFile(
                atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))

        try FileTokenStore(path: path).save(AuthToken(value: "tk_2"))

        #expect(try permissions(of: path) == 0o600)
        #expect(try FileTokenStore(path: path).load() == AuthToken(value: "tk_2"))
    }

    @Test func aSavedToken_isLoadedByAnotherStore_asAfterARestart() throws {
        try FileTokenStore(path: path).save(AuthToken(value: "tk_1_secret"))

        #expect(try FileTokenStore(path: path).load() == AuthToken(value: "tk_1_secret"))
    }

    @Test func withNoFile_thereIsNoToken() throws {
        #expect(try FileTokenStore(path: path).load() == nil)
    }

    @Test func delete_removesTheFile_andSucceedsWhenThereIsNone() throws {
        let store = FileTokenStore(path: path)
        try store.save(AuthToken(value: "tk_1"))

        try store.delete()
        try store.delete()

        #expect(try store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aTokensDescription_neverShowsItsValue() {
        #expect("\(AuthToken(value: "tk_1_secret"))" == "AuthToken(<redacted>)")
    }
}
