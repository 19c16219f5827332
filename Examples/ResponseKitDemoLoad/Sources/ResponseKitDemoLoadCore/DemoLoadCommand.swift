import CitiesCore
import Dispatch
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitLoad
import SignInCore

/// The demo's interactors under load, from the command line: parses the arguments, runs the
/// load, prints the report and exits. What `ResponseKitDemoLoad` runs, and
/// `ResponseBenchmarks load`.
public enum DemoLoadCommand {
    /// Starts the command with `arguments` (the program's name left out) and returns; the caller
    /// then services the main queue with `dispatchMain()`, where the answers on `.main` arrive.
    /// The process exits with 0 once the report is printed, 99 when it misses a threshold or
    /// regressed against the baseline (as k6 does), 1 when the run failed, and at once with 64
    /// for a usage error.
    ///
    /// It returns rather than calling `dispatchMain()` itself, so that nothing of its own is left
    /// on the main thread's stack when `dispatchMain()` ends that thread (LeakSanitizer reports
    /// such a reference as a leak at exit).
    ///
    /// - Parameters:
    ///   - arguments: the command's arguments, as `signin --in-flight 64`.
    ///   - program: the name usage messages give the command.
    public static func start(_ arguments: [String], program: String) {
        let usage = CommandLineUsage(program: program, text: LoadArguments.usage(program: program))
        let parsed: LoadArguments
        switch LoadArguments.parse(arguments) {
        case .run(let arguments): parsed = arguments
        case .help: usage.exitShowingHelp()
        case .invalid(let problem): usage.exitRejecting(problem)
        }

        // Files go to a temporary directory unless --data-dir says otherwise; kept until the
        // report is out, and removed by `finish(_:removing:)` (`exit` runs no deinitialiser).
        let temporary = parsed.dataDirectory == nil ? TemporaryDirectory() : nil
        let dataDirectory = parsed.dataDirectory ?? temporary!.path
        let driver = LoadDriver(parsed.mode, for: parsed.length, warmUp: parsed.warmUp, interval: parsed.interval)
        // Read before the run, so that a missing or broken baseline costs no run.
        let baseline: LoadReport?
        do {
            baseline = try parsed.baselinePath.map {
                try JSONDecoder().decode(LoadReport.self, from: Data(contentsOf: URL(fileURLWithPath: $0)))
            }
        } catch {
            ConsoleOutput.standardError.writeLine(
                "\(program): cannot read the baseline \(parsed.baselinePath ?? ""): \(error)")
            finish(1, removing: temporary)
        }

        // Each target's requests, made the same way for a run of one target and for a mix.
        func signIn() -> @Sendable (Int) -> Response<AuthState> {
            DemoLoadTarget.signIn(dataDirectory: dataDirectory, latency: parsed.latency, server: parsed.authServer)
        }
        func addCity() -> @Sendable (Int) -> Response<CitiesChange> {
            DemoLoadTarget.addCity(dataDirectory: dataDirectory)
        }
        func echo() -> @Sendable (Int) -> Response<Int> {
            DemoLoadTarget.echo(on: parsed.answersOnMain ? .main : .immediate)
        }

        /// Runs the load, prints the report and exits; the answers on `.main` need the main
        /// queue, which `dispatchMain()` services below.
        func run<Value>(_ request: @escaping @Sendable (Int) -> Response<Value>) {
            if let limit = parsed.searchLimit {
                search(request, limit: limit)
                return
            }
            let startTime = Date()
            driver.run(on: .main, request).onResult { result in
                switch result {
                case .success(let report):
                    ConsoleOutput.standardOutput.writeLine(parsed.json ? report.json : report.table)
                    do {
                        try write(report, startedAt: startTime, baseline: baseline, as: parsed, program: program)
                    } catch {
                        ConsoleOutput.standardError.writeLine("\(program): \(error)")
                        finish(1, removing: temporary)
                    }
                    finish(verdict(on: report, against: baseline, as: parsed, program: program), removing: temporary)
                case .failure(let error):
                    ConsoleOutput.standardError.writeLine("\(program): \(error)")
                    finish(1, removing: temporary)
                }
            }
        }

        /// Runs the rate search, prints each step and the rate found, and exits.
        func search<Value>(_ request: @escaping @Sendable (Int) -> Response<Value>, limit: Duration) {
            let from = if case .openLoop(let perSecond) = parsed.mode { perSecond } else { 100.0 }
            let duration = if case .duration(let duration) = parsed.length { duration } else { Duration.seconds(5) }
            let search = LoadRateSearch(
                limit: limit, from: from, to: max(from, parsed.searchTo), stepDuration: duration, progress: .silent)
            search.run(on: .main, request).onResult { result in
                switch result {
                case .success(let outcome):
                    for step in outcome.steps {
                        ConsoleOutput.standardOutput.writeLine(
                            "\(Int(step.rate.rounded())) a second: p99 \(milliseconds(step.latency))"
                                + " \(step.passed ? "passed" : "failed")\(step.isRerun ? " (rerun)" : "")")
                    }
                    let found = outcome.highestPassingRate.map { "\(Int($0.rounded())) a second" } ?? "none"
                    ConsoleOutput.standardOutput.writeLine(
                        "highest rate with p99 under \(milliseconds(limit)): \(found)")
                    finish(outcome.highestPassingRate == nil ? 99 : 0, removing: temporary)
                case .failure(let error):
                    ConsoleOutput.standardError.writeLine("\(program): \(error)")
                    finish(1, removing: temporary)
                }
            }
        }

        /// Runs the mix, prints each scenario's table and the total's, writes the page (a column a
        /// scenario) and exits.
        func runMix() {
            let scenarios = parsed.mix.map { part in
                switch part.target {
                case .signIn: LoadScenario(name: part.target.rawValue, weight: part.weight, signIn())
                case .addCity: LoadScenario(name: part.target.rawValue, weight: part.weight, addCity())
                case .echo, .mix: LoadScenario(name: part.target.rawValue, weight: part.weight, echo())
                }
            }
            driver.run(on: .main, scenarios: scenarios).onResult { result in
                switch result {
                case .success(let report):
                    ConsoleOutput.standardOutput.writeLine(report.table)
                    do {
                        if let path = parsed.pagePath {
                            let page = LoadReportPage(
                                title: "\(program) mix", runs: report.scenarios + [("total", report.total)])
                            try page.html.write(toFile: path, atomically: true, encoding: .utf8)
                        }
                    } catch {
                        ConsoleOutput.standardError.writeLine("\(program): \(error)")
                        finish(1, removing: temporary)
                    }
                    finish(verdict(on: report.total, against: nil, as: parsed, program: program), removing: temporary)
                case .failure(let error):
                    ConsoleOutput.standardError.writeLine("\(program): \(error)")
                    finish(1, removing: temporary)
                }
            }
        }

        switch parsed.target {
        case .signIn: run(signIn())
        case .addCity: run(addCity())
        case .echo: run(echo())
        case .mix: runMix()
        }
    }

    /// Removes the temporary data directory, if the run made one, and exits with `status`: every
    /// way out once it exists (`exit` runs no deinitialiser, so it would be left behind).
    private nonisolated static func finish(_ status: Int32, removing temporary: TemporaryDirectory?) -> Never {
        temporary?.remove()
        exit(status)
    }

    /// Says on standard error which thresholds the report misses and how it compares with the
    /// baseline; returns the exit status: 99 when it misses one or regressed, 0 otherwise.
    private nonisolated static func verdict(
        on report: LoadReport, against baseline: LoadReport?, as arguments: LoadArguments, program: String
    ) -> Int32 {
        var failed = false
        for violation in report.check(arguments.thresholds) {
            ConsoleOutput.standardError.writeLine("\(program): threshold missed: \(violation)")
            failed = true
        }
        if let baseline {
            let comparison = LoadComparison(baseline: baseline, current: report, minimumEffect: arguments.minimumEffect)
            ConsoleOutput.standardError.writeLine("\(program): \(comparison)")
            failed = failed || !comparison.regressions.isEmpty
        }
        return failed ? 99 : 0
    }

    /// Writes the files `arguments` ask for: the interval log and the percentile distribution.
    private nonisolated static func write(
        _ report: LoadReport, startedAt startTime: Date, baseline: LoadReport?, as arguments: LoadArguments,
        program: String
    ) throws {
        if let path = arguments.pagePath {
            let runs =
                [("this run: \(report.mode.summaryForPage)", report)] + (baseline.map { [("baseline", $0)] } ?? [])
            let title = "\(program) \(arguments.target.rawValue)"
            try LoadReportPage(title: title, runs: runs).html.write(toFile: path, atomically: true, encoding: .utf8)
        }
        if let path = arguments.histogramLogPath {
            try report.histogramLog(startTime: startTime).text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        if let path = arguments.percentileDistributionPath {
            try report.latencies.percentileDistribution().write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}

/// `12.34 ms`.
private nonisolated func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.2f ms", Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
}

extension LoadDriver.Mode {
    /// `64 in flight` or `1,000 a second`, for a page's heading.
    fileprivate nonisolated var summaryForPage: String {
        switch self {
        case .closedLoop(let inFlight): "\(inFlight) in flight"
        case .openLoop(let perSecond):
            "\(perSecond == perSecond.rounded() ? "\(Int(perSecond))" : "\(perSecond)") a second"
        case .openLoopStages(let stages): "up to \(Int(stages.map(\.target).max() ?? 0)) a second, in stages"
        case .closedLoopStages(let stages): "up to \(Int(stages.map(\.target).max() ?? 0)) in flight, in stages"
        }
    }
}
