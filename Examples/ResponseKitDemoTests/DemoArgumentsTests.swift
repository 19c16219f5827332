import Foundation
import ResponseKitDemoCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct DemoArgumentsTests {
    @Test func noArguments_readStandardInput_inTheDefaultDirectory() throws {
        #expect(try DemoArguments.parse([]).get() == DemoArguments())
    }

    @Test func eachArgument_isOneCommand() throws {
        let parsed = try DemoArguments.parse(["--data-dir", "/tmp/demo", "signin ada secret", "add New York"]).get()

        #expect(parsed == DemoArguments(dataDirectory: "/tmp/demo", commands: ["signin ada secret", "add New York"]))
    }

    @Test func aDataDirectoryOptionWithoutADirectory_isExplained() {
        #expect(DemoArguments.parse(["--data-dir"]) == .failure(.init(message: "--data-dir needs a directory")))
    }

    @Test func anUnknownOption_isNamed() {
        #expect(DemoArguments.parse(["--fast"]) == .failure(.init(message: "unknown option --fast")))
    }

    @Test func anAuthServer_isAnHTTPURL_andCommandsStillFollow() throws {
        let parsed = try DemoArguments.parse(["--auth-server", "http://127.0.0.1:8080", "status"]).get()

        #expect(parsed == DemoArguments(commands: ["status"], authServer: URL(string: "http://127.0.0.1:8080")))
    }

    @Test(arguments: [["--auth-server"], ["--auth-server", "127.0.0.1:8080"], ["--auth-server", "ftp://example.com"]])
    func anAuthServerThatIsNoHTTPURL_isAUsageError(arguments: [String]) {
        #expect(
            DemoArguments.parse(arguments)
                == .failure(
                    .init(message: "--auth-server needs an http:// or https:// URL, such as http://127.0.0.1:8080")))
    }

    @Test func serve_runsWithoutACommandLine() throws {
        var expected = DemoArguments(dataDirectory: "/var/lib/demo")
        expected.serve = true
        #expect(try DemoArguments.parse(["--serve", "--data-dir", "/var/lib/demo"]).get() == expected)
    }

    @Test func serve_withCommands_isAUsageError() {
        #expect(
            DemoArguments.parse(["--serve", "list"])
                == .failure(.init(message: "--serve takes no commands: it runs without a command line")))
    }

    @Test func help_isAskedForWithoutAProblem() {
        #expect(DemoArguments.parse(["--help"]) == .failure(.init(message: nil)))
    }
}
