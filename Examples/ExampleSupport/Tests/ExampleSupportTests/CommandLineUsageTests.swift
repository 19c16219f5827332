import ExampleSupport
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct CommandLineUsageTests {
    let usage = CommandLineUsage(program: "Cities", text: "usage: Cities [--file PATH]")

    @Test func help_goesToStandardOutput_withStatusZero() {
        let answer = usage.answer(to: nil)

        #expect(answer.text == "usage: Cities [--file PATH]\n")
        #expect(!answer.isError)
        #expect(answer.status == 0)
    }

    @Test func aProblem_goesToStandardError_namedByTheProgram_beforeTheUsage_withStatus64() {
        let answer = usage.answer(to: "unknown option --fast")

        #expect(answer.text == "Cities: unknown option --fast\nusage: Cities [--file PATH]\n")
        #expect(answer.isError)
        #expect(answer.status == 64)
    }

    @Test func noArguments_runs_helpIsHelp_andAnythingElseIsNamed() {
        #expect(CommandLineRequest.parsingNoArguments([]) == .run(NoArguments()))
        #expect(CommandLineRequest.parsingNoArguments(["--help"]) == .help)
        #expect(CommandLineRequest.parsingNoArguments(["list", "-h"]) == .help)
        #expect(CommandLineRequest.parsingNoArguments(["--fast"]) == .invalid("unknown option --fast"))
        #expect(CommandLineRequest.parsingNoArguments(["list"]) == .invalid("unexpected argument list"))
    }
}
