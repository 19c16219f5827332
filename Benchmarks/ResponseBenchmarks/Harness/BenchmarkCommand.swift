import Foundation

/// The `ResponseBenchmarks` command: parses the options, runs the selected workloads, prints the
/// report. Progress and errors go to standard error, so that `--json` output stays clean.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
@MainActor
enum BenchmarkCommand {
    /// Runs the command and returns the exit status.
    static func run(arguments: some Sequence<String>) -> Int32 {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            if !error.description.isEmpty { printError("ResponseBenchmarks: \(error)") }
            printError(Options.usage)
            return error.description.isEmpty ? 0 : 2
        }

        if let threads = options.contentionThreads {
            let perThread = options.operations ?? (options.isSmoke ? 100 : 5_000)
            C1LockContention.run(threads: threads, operationsPerThread: perThread, rounds: options.repetitions ?? 5)
            return 0
        }
        let workloads = Suite.workloads.filter { options.selects($0.id) }
        if options.listsWorkloads {
            for workload in Suite.workloads {
                print("\(workload.id)\t\(workload.title) [\(workload.unit.rawValue)]")
            }
            return 0
        }
        guard !workloads.isEmpty else {
            printError("ResponseBenchmarks: no workload matches \(options.filters); see --list")
            return 2
        }
        if Machine.isDebugBuild {
            printError(
                "ResponseBenchmarks: this is a debug build; use `swift run -c release` for figures that mean anything")
        }

        if let profiled = options.profiled {
            let runner = Runner(options: options) { printError($0) }
            for workload in workloads { runner.profile(profiled, of: workload) }
            return 0
        }

        let date = Date.now.formatted(.iso8601)
        let clock = ContinuousClock()
        let start = clock.now
        let runner = Runner(options: options) { printError($0) }
        let results = workloads.map(runner.run)
        let report = RunReport(date: date, machine: .current(), isSmoke: options.isSmoke, results: results)
        printError("ResponseBenchmarks: \(results.count) workloads in \(start.duration(to: clock.now))")

        if options.printsJSON {
            do {
                print(try report.json())
            } catch {
                printError("ResponseBenchmarks: could not encode the report: \(error)")
                return 1
            }
        } else {
            print(TableReport(run: report).text)
        }
        let overBudget = results.filter { $0.isWithinAllocationBudget == false }
        for result in overBudget {
            let counted = result.responseKit?.allocationsPerOperation ?? 0
            printError(
                "ResponseBenchmarks: \(result.id) allocates \(TableReport.allocationCount(counted)) times per operation, "
                    + "over its budget of \(Int(result.allocationBudget ?? 0)) (Workloads/\(result.id.prefix(2))*.swift)"
            )
        }
        return overBudget.isEmpty ? 0 : 1
    }

    nonisolated static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
