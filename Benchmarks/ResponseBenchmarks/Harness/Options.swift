/// The command line of `ResponseBenchmarks`.
struct Options {
    /// Run every selected workload once at a tiny size: a check for CI, not a measurement.
    var isSmoke = false
    /// Print JSON on standard output instead of the table.
    var printsJSON = false
    /// Workload ids to run, matched as case-insensitive prefixes (`W7` runs `W7/1`, `W7/64`, …,
    /// and their `dispatchMain` twins); one that ends in `$` matches only the id before it (`W6$`).
    var filters: [String] = []
    /// Overrides each workload's repetitions (at least 5) in a full run.
    var repetitions: Int?
    /// Overrides each workload's operations per repetition in a full run: smaller for a profiler
    /// (callgrind runs some 50 times slower), larger for steadier figures.
    var operations: Int?
    /// List the workloads instead of running them.
    var listsWorkloads = false
    /// Run only this variant of each selected workload, untimed and unreported, so that a
    /// profiler (callgrind) counts that variant alone.
    var profiled: ProfiledVariant?
    /// Run the lock-contention measurement (C1) with this many threads instead of the workloads.
    var contentionThreads: Int?

    static let usage = """
        usage: ResponseBenchmarks [--smoke] [--json] [--filter ID[,ID…]]… [--repetitions N] [--operations N] [--list]
                                  [--profile responseKit|floor|NAME] [--contention THREADS]
               ResponseBenchmarks load signin|add-city|echo [options]   the demo's interactors under the
                                  load driver (ResponseKitLoad); 'ResponseBenchmarks load --help' for its options

          --smoke           run each workload once at a tiny size (CI); figures mean nothing
          --json            print the results as JSON on standard output
          --filter IDS      run only these workloads; ids match as prefixes: W1, W7, W7/64, W7/64/, M;
                            an id ending in $ matches only itself: 'W7/64$'
          --repetitions N   repetitions per workload in a full run (at least 5; default 7)
          --operations N    operations per repetition, instead of each workload's own count
          --list            list the workloads and exit
          --profile ROLE    run only the responseKit (or floor) variant, untimed, for a profiler;
                            or the variant whose name starts with ROLE ('ResponseKit, async body')
          --contention N    instead of the workloads: N threads registering on one response (C1),
                            wall and processor time per registration; --operations sets the
                            registrations per thread (default 5000)
        """

    /// The variant `--profile` selects: by role, or by the start of its name (for an alternative).
    enum ProfiledVariant {
        case role(Variant.Role)
        case named(String)

        func selects(_ variant: Variant) -> Bool {
            switch self {
            case .role(let role): variant.role == role
            case .named(let prefix): variant.name.hasPrefix(prefix)
            }
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: some Sequence<String>) throws(UsageError) -> Options {
        var options = Options()
        var remaining = arguments.makeIterator()
        while let argument = remaining.next() {
            switch argument {
            case "--smoke":
                options.isSmoke = true
            case "--json":
                options.printsJSON = true
            case "--list":
                options.listsWorkloads = true
            case "--filter":
                guard let value = remaining.next() else { throw UsageError(description: "--filter needs workload ids") }
                options.filters += value.split(separator: ",").map { String($0) }
            case "--repetitions":
                guard let value = remaining.next(), let count = Int(value), count >= 5 else {
                    throw UsageError(description: "--repetitions needs a number of at least 5")
                }
                options.repetitions = count
            case "--operations":
                guard let value = remaining.next(), let count = Int(value), count >= 1 else {
                    throw UsageError(description: "--operations needs a positive number")
                }
                options.operations = count
            case "--profile":
                guard let value = remaining.next(), !value.isEmpty else {
                    throw UsageError(description: "--profile needs responseKit, floor or a variant's name")
                }
                if let role = Variant.Role(rawValue: value), role != .alternative {
                    options.profiled = .role(role)
                } else {
                    options.profiled = .named(value)
                }
            case "--contention":
                guard let value = remaining.next(), let count = Int(value), count >= 1 else {
                    throw UsageError(description: "--contention needs a number of threads")
                }
                options.contentionThreads = count
            case "--help", "-h":
                throw UsageError(description: "")
            default:
                throw UsageError(description: "unknown argument \(argument)")
            }
        }
        return options
    }

    /// Whether the filters select `id`; no filter selects everything.
    func selects(_ id: String) -> Bool {
        let id = id.lowercased()
        return filters.isEmpty
            || filters.contains { filter in
                let filter = filter.lowercased()
                return filter.hasSuffix("$") ? id == filter.dropLast() : id.hasPrefix(filter)
            }
    }
}
