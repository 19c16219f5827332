import Foundation
import ResponseKit

/// Prints a line at once, even when standard output is a pipe.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The checker's command: runs programs from a seed (or replays one), checks each, and returns
/// the exit status. It runs on a thread of its own while the main thread serves the main queue.
enum Checker {
    static func run(_ options: Options) -> Int32 {
        // Double resolves, drops and unobserved failures are deliberate here: count them, never print.
        let diagnostics = DiagnosticCounts()
        ResponseDiagnostics.handler = { diagnostics.add($0.kind.description) }
        if let seed = options.replay {
            return replay(seed, runs: options.runs)
        }

        report("ResponseChecker: seed \(options.seed)")
        var seeds = SplitMix64(seed: options.seed)
        let started = Date()
        var lastReport = started
        var passed = 0
        var failed = 0
        var checks = 0
        while true {
            if let programs = options.programs, passed + failed >= programs { break }
            if let seconds = options.seconds, Date().timeIntervalSince(started) >= seconds { break }
            let program = Program.generate(seed: seeds.next())
            let model = Model.check(program, Runner.run(program))
            checks += model.checks
            if model.violations.isEmpty {
                passed += 1
            } else {
                failed += 1
                report("FAILED: program \(program.seed) (replay: --replay \(program.seed))")
                report(program.description)
                for rule in model.violations.prefix(5) { report("  broken: \(rule)") }
                if failed <= options.shrinks {
                    let (smallest, rules) = Shrinker.shrink(program, attempts: 20, budget: 300)
                    report("shrunk to:")
                    report(smallest.description)
                    for rule in rules.prefix(3) { report("  broken: \(rule)") }
                }
            }
            if Date().timeIntervalSince(lastReport) >= 10 {
                lastReport = Date()
                report("  \(passed + failed) programs, \(failed) failed, \(checks) checked events")
            }
        }

        // A callback that runs after its program was checked ran twice, or very late.
        Thread.sleep(forTimeInterval: 0.2)
        let late = LateRuns.shared.all
        if !late.isEmpty {
            report(
                "FAILED: \(late.count) callbacks ran after their program was checked, in programs \(Set(late).sorted())"
            )
        }
        report("diagnostics (expected, not failures): \(diagnostics.summary)")
        let seconds = Int(Date().timeIntervalSince(started))
        report("\(passed) passed, \(failed) failed; \(checks) checked events in \(seconds) s")
        return failed == 0 && late.isEmpty ? 0 : 1
    }

    /// Runs program `seed` `runs` times: a race may need many runs to show.
    private static func replay(_ seed: UInt64, runs: Int) -> Int32 {
        let program = Program.generate(seed: seed)
        report(program.description)
        var failed = 0
        var checks = 0
        for _ in 0..<runs {
            let model = Model.check(program, Runner.run(program))
            checks += model.checks
            if !model.violations.isEmpty {
                failed += 1
                if failed == 1 { for rule in model.violations.prefix(5) { report("  broken: \(rule)") } }
            }
        }
        report("replayed \(runs) times: \(runs - failed) passed, \(failed) failed, \(checks) checked events")
        return failed == 0 ? 0 : 1
    }
}
