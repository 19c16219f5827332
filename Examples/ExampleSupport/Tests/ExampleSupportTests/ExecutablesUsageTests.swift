import ExampleSupport
import ExecutableRun
import Foundation
import ResponseKitLoad
import ResponseKitTesting
import Testing

/// Every example's executable, run for real, answers `--help` and a bad command line alike
/// (``ExampleSupport/CommandLineUsage``): help on standard output with status 0; a problem and
/// the usage on standard error with status 64, and nothing on standard output. The demo's own
/// documented status for a data directory it cannot use (73) is checked here too.
@Suite(.serialized, .responseChecks)
struct ExecutablesUsageTests {
    nonisolated static let executables = [
        "ResponseKitDemo", "RegisterActivation", "SignIn", "Cities", "Authentication", "CleanSwiftScene",
        "ResponseKitDemoLoad",
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

    @Test func theDemo_givenADataDirectoryItCannotCreate_exitsWith73_sayingWhy_andClaimsNothing() throws {
        let directory = TemporaryDirectory()
        try AtomicFile.write(Data("x".utf8), to: directory.path("plain"))

        let run = try ExecutableRun("ResponseKitDemo", ["--data-dir", directory.path("plain/demo"), "add Paris"])

        #expect(run.status == 73)
        #expect(run.standardOutput.isEmpty)
        #expect(
            run.standardError.hasPrefix(
                "ResponseKitDemo: cannot keep data in \(directory.path("plain/demo")) "
                    + "(mkdir \(directory.path("plain")): Not a directory); nothing was started or saved."))
    }

    @Test func theBenchmarks_runTheLoadDemo_asASubcommand() throws {
        let help = try ExecutableRun("ResponseBenchmarks", ["load", "--help"])
        let table = try ExecutableRun("ResponseBenchmarks", ["load", "echo", "--requests", "1000", "--warm-up", "0"])
        let bad = try ExecutableRun("ResponseBenchmarks", ["load", "echo", "--in-flight", "0"])

        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("usage: ResponseBenchmarks load"))
        #expect(table.status == 0)
        #expect(table.standardOutput.contains("completed    1,000"))
        #expect(bad.status != 0)
        #expect(bad.standardError.contains("ResponseBenchmarks load"))
    }

    /// `exit` runs no deinitialiser: the load demo's temporary data directory was left behind by
    /// every run (hundreds on a machine that ran the tests a while).
    @Test func theLoadDemo_removesItsTemporaryDataDirectory_whenItSucceedsAndWhenItFails() throws {
        let temporary = TemporaryDirectory()

        let passed = try ExecutableRun(
            "ResponseKitDemoLoad", ["signin", "--requests", "100", "--warm-up", "0"],
            environment: ["TMPDIR": temporary.path])
        let failed = try ExecutableRun(
            "ResponseKitDemoLoad", ["echo", "--requests", "100", "--baseline", temporary.path("missing.json")],
            environment: ["TMPDIR": temporary.path])

        #expect(passed.status == 0, "\(passed.standardError)")
        #expect(failed.status == 1)
        #expect(failed.standardError.contains("cannot read the baseline"))
        #expect(temporary.entries == [])
    }

    @Test func theLoadDemo_printsItsReport_asATableOrAsJSON() throws {
        let table = try ExecutableRun("ResponseKitDemoLoad", ["echo", "--requests", "1000", "--warm-up", "0"])
        let json = try ExecutableRun("ResponseKitDemoLoad", ["echo", "--requests", "1000", "--warm-up", "0", "--json"])

        #expect(table.status == 0)
        #expect(table.standardOutput.hasPrefix("mode         closed loop, 64 in flight\nlength       1,000 requests\n"))
        #expect(table.standardOutput.contains("answers on   immediate 100 %"))
        #expect(table.standardError.isEmpty)  // no progress line: standard error is a file here
        #expect(json.status == 0)
        let report = try JSONDecoder().decode(LoadReport.self, from: Data(json.standardOutput.utf8))
        #expect(report.completed == 1_000)
    }
}
