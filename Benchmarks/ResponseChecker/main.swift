// ResponseChecker: random programs over ResponseKit, checked against its documented rules.
//
// Each program builds pending responses and compositions of them, then races resolutions,
// cancellations, dropped resolvers, callbacks, blocking reads and awaits on real threads; a model
// checks every outcome (Model.swift). A failing program prints its seed, the program and the
// broken rule, then a shrunk version. See CONTRIBUTING.md.
//
//     swift run -c release --scratch-path .build-checker ResponseChecker --seconds 45
//     swift run -c release --scratch-path .build-checker ResponseChecker --seed 7 --programs 20000
//     swift run -c release --scratch-path .build-checker ResponseChecker --replay <program seed>

import Foundation
import ResponseKit

/// Prints a line at once, even when standard output is a pipe.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    report(Options.usage)
    exit(64)
}

// Double resolves, drops and unobserved failures are deliberate here: count them, never print.
let diagnostics = DiagnosticCounts()
ResponseDiagnostics.handler = { diagnostics.add($0.kind.description) }

if let seed = options.replay {
    let program = Program.generate(seed: seed)
    report(program.description)
    var failed = 0
    var checks = 0
    for _ in 0..<options.runs {
        let model = Model.check(program, Runner.run(program))
        checks += model.checks
        if !model.violations.isEmpty {
            failed += 1
            if failed == 1 { for rule in model.violations.prefix(5) { report("  broken: \(rule)") } }
        }
    }
    report(
        "replayed \(options.runs) times: \(options.runs - failed) passed, \(failed) failed, \(checks) checked events")
    exit(failed == 0 ? 0 : 1)
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
    report("FAILED: \(late.count) callbacks ran after their program was checked, in programs \(Set(late).sorted())")
}
report("diagnostics (expected, not failures): \(diagnostics.summary)")
let seconds = Int(Date().timeIntervalSince(started))
report("\(passed) passed, \(failed) failed; \(checks) checked events in \(seconds) s")
exit(failed == 0 && late.isEmpty ? 0 : 1)
