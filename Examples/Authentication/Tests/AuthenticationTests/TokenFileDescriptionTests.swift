import AuthenticationCore
import ExampleSupport
import Foundation
import ResponseKitTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The line the executable ends with says who may read the token, as the file's mode says.
@Suite(.responseChecks)
@MainActor
struct TokenFileDescriptionTests {
    let directory = TemporaryDirectory()

    func describe(mode: mode_t) throws -> String {
        let path = directory.path("token")
        try FileTokenStore(path: path).save(AuthToken(value: "tk_1"))
        chmod(path, mode)
        return AuthenticationApp(tokenFile: path, output: ConsoleOutput { _ in }).describeTokenFile()
    }

    @Test func aPrivateFile_isReadableOnlyByYou() throws {
        #expect(try describe(mode: 0o600) == "token file \(directory.path("token")) (rw-------, readable only by you)")
    }

    @Test func aFileOthersCanRead_isReportedWithAWarning() throws {
        #expect(
            try describe(mode: 0o644).hasSuffix(
                "(rw-r--r--, WARNING: readable by every user of this machine; chmod 600 it)"))
        #expect(try describe(mode: 0o640).hasSuffix("(rw-r-----, WARNING: readable by the file's group; chmod 600 it)"))
    }

    @Test func noFile_isSaid() {
        let app = AuthenticationApp(tokenFile: directory.path("none"), output: ConsoleOutput { _ in })

        #expect(app.describeTokenFile() == "no token file at \(directory.path("none"))")
    }
}
