import ExampleSupport
import Testing

/// Every example's executable, run for real, answers `--help` and a bad command line alike
/// (``ExampleSupport/CommandLineUsage``): help on standard output with status 0; a problem and
/// the usage on standard error with status 64, and nothing on standard output.
@Suite(.serialized)
struct ExecutablesUsageTests {
    static let executables = [
        "ResponseKitDemo", "RegisterActivation", "SignIn", "Cities", "Authentication", "CleanSwiftScene",
    ]

    @Test(arguments: executables)
    func help_printsTheUsageOnStandardOutput_andExitsWithZero(executable: String) throws {
        for option in ["--help", "-h"] {
            let run = try ExecutableRun(executable, [option])

            #expect(run.status == 0, "\(executable) \(option)")
            #expect(run.standardOutput.hasPrefix("usage: \(executable)"), "\(executable) \(option)")
            #expect(run.standardError.isEmpty, "\(executable) \(option)")
        }
    }

    @Test(arguments: executables)
    func aBadOption_printsTheProblemAndTheUsageOnStandardError_andExitsWith64(executable: String) throws {
        let run = try ExecutableRun(executable, ["--bogus"])

        #expect(run.status == 64)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.hasPrefix("\(executable): unknown option --bogus\nusage: \(executable)"))
    }

    @Test func aBadOption_isEchoedCutAndEscaped() throws {
        let run = try ExecutableRun("Cities", ["--\u{1B}[2J" + String(repeating: "x", count: 10_000)])

        #expect(run.status == 64)
        #expect(!run.standardError.contains("\u{1B}"))
        #expect(run.standardError.contains("…(10021 bytes)"))
    }
}
