import ResponseKitDemoCore
import Testing

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

    @Test func help_isAskedForWithoutAProblem() {
        #expect(DemoArguments.parse(["--help"]) == .failure(.init(message: nil)))
    }
}
