import AuthenticationCore
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitLoad

/// The command line of `ResponseKitDemoLoad`.
public struct LoadArguments: Equatable, Sendable {
    /// How to call the executable.
    public static let usage = Self.usage(program: "ResponseKitDemoLoad")

    /// How to call the command when `program` runs it (`ResponseBenchmarks load`, say).
    public static func usage(program: String) -> String {
        let indent = String(repeating: " ", count: "usage: \(program) ".count)
        return """
            usage: \(program) signin|add-city|echo|mix TARGET:WEIGHT,… [--in-flight N | --rate N | --stages SPEC | --in-flight-stages SPEC]
            \(indent)[--duration SECONDS | --requests N] [--warm-up SECONDS]
            \(indent)[--latency MS | --auth-server URL] [--on main|immediate] [--data-dir DIR] [--json]
            \(indent)[--html FILE] [--hlog FILE] [--hgrm FILE] [--interval SECONDS]
            \(indent)[--threshold 'p99 < 50ms']... [--baseline REPORT.json [--min-effect PERCENT]]
            \(indent)[--search-p99 MS [--search-to N]]
              Puts one of the demo's interactors under load; prints throughput and latency percentiles.
                signin    the demo's sign-in: AuthInteractor over the decorated authentication use case,
                          its fake backend answering after --latency MS per request (default 10), the
                          token saved to a 0600 file each time; with --auth-server URL, over HTTP to
                          that server instead (HTTPAuthenticationAPI, as the demo's --auth-server)
                add-city  the demo's AddCity over its JSON file: each request adds "City <n>" and
                          rewrites the file (fsync), one at a time
                echo      answers at once, on --on main or immediate (default): the driver's own cost
                mix       the targets after it by weight, as `mix signin:8,add-city:2` (eight sign-ins
                          to two cities added): a table each, then the total's; --html a column each
              --in-flight N keeps N requests pending (a closed loop; default 64); --rate N starts N a
              second whether or not earlier ones are answered (an open loop: latency counts from each
              request's intended start). Measures for --duration SECONDS (default 5) or --requests N,
              after --warm-up SECONDS (default 1) that is not counted. --stages '10s:100,30s:=100,10s:0'
              is an open loop whose rate ramps to 100 a second over 10 s, holds 100 (=, a step) for
              30 s and ramps to 0 over 10 s; --in-flight-stages does the same with requests in flight.
              In stages the run lasts as long as the stages, with no warm-up unless --warm-up says.
              --search-p99 MS finds the highest open-loop rate, from --rate (default 100) to
              --search-to (default 100000), whose p99 stays under MS: a step of --duration at each
              rate, doubling then halving the gap to 2 %; a step that passes within 10 % of the limit
              runs again and must pass again. Files go to DIR (default: a
              temporary directory, removed at the end). --json prints the report as JSON.
              --html FILE writes a page with the run's pictures (the latency by percentile, and
              throughput, p50 and p99 over the run; beside the baseline's, with --baseline).
              --hlog FILE writes the latencies of each second in HdrHistogram's interval log format,
              --hgrm FILE their percentile distribution in HdrHistogram's text (milliseconds): what
              HdrHistogram's tools and plotters read. --interval sets their length (default 1).
              --threshold fails the run (exit status 99) when the report misses it: a latency
              (p50, p99, p99.9, min, mean, max) against a duration, throughput against answers a
              second, failed or cancelled against a count or a share (0.1%); repeat it for more.
              --baseline compares with an earlier run's --json report and fails (99) when p50, p99
              or throughput is surely worse by more than --min-effect (default 10) percent, judged
              over the runs' intervals (a 99 % bootstrap interval), so noise does not fail it.
            """
    }

    /// What is put under load.
    public enum Target: String, Equatable, Sendable, CaseIterable {
        /// The demo's sign-in.
        case signIn = "signin"
        /// The demo's AddCity.
        case addCity = "add-city"
        /// An interactor that answers at once.
        case echo
        /// Several of the others, by weight.
        case mix
    }

    /// One target of a mix and its weight.
    public struct MixPart: Equatable, Sendable {
        /// What is put under load.
        public var target: Target
        /// Its share of the requests.
        public var weight: Int

        /// A target of a mix.
        ///
        /// - Parameters:
        ///   - target: what is put under load.
        ///   - weight: its share of the requests.
        public init(_ target: Target, weight: Int) {
            self.target = target
            self.weight = weight
        }
    }

    /// What is put under load.
    public var target: Target
    /// How the requests arrive.
    public var mode = LoadDriver.Mode.closedLoop(inFlight: 64)
    /// How long the measured part lasts.
    public var length = LoadDriver.Length.duration(.seconds(5))
    /// How long the warm-up lasts.
    public var warmUp = LoadDriver.Length.duration(.seconds(1))
    /// The fake authentication backend's latency per request, for `signin`.
    public var latency = Duration.milliseconds(10)
    /// The authentication server `signin` talks to over HTTP; `nil` for the in-process fake.
    public var authServer: URL?
    /// Where `echo` answers.
    public var answersOnMain = false
    /// Where `signin` and `add-city` keep their files; `nil` for a temporary directory.
    public var dataDirectory: String?
    /// Whether to print JSON rather than a table.
    public var json = false
    /// Where to write the run's page of pictures (HTML), if anywhere.
    public var pagePath: String?
    /// Where to write the run's HdrHistogram interval log (`.hlog`), if anywhere.
    public var histogramLogPath: String?
    /// Where to write the run's HdrHistogram percentile distribution (`.hgrm`), if anywhere.
    public var percentileDistributionPath: String?
    /// How long each of the report's intervals lasts.
    public var interval = Duration.seconds(1)
    /// The pass marks the run must meet.
    public var thresholds: [LoadThreshold] = []
    /// An earlier run's JSON report to compare with, if any.
    public var baselinePath: String?
    /// How much worse, at least, a figure must surely be to fail against the baseline.
    public var minimumEffect = 0.1
    /// The p99 limit of a rate search (`--search-p99`), if one is asked for.
    public var searchLimit: Duration?
    /// The highest rate a search tries.
    public var searchTo = 100_000.0
    /// The targets of a `mix`, with their weights.
    public var mix: [MixPart] = []

    /// Makes arguments with the defaults.
    ///
    /// - Parameter target: what is put under load.
    public init(target: Target) {
        self.target = target
    }

    /// Reads the arguments after the program name.
    ///
    /// - Parameter arguments: the command-line arguments after the program name.
    /// - Returns: the arguments, help, or what is wrong.
    public static func parse(_ arguments: [String]) -> CommandLineRequest<LoadArguments> {
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }
        var remaining = arguments[...]
        guard let first = remaining.popFirst() else {
            return .invalid("say what to load: signin, add-city, echo or mix")
        }
        guard let target = Target(rawValue: first) else {
            return .invalid(first.hasPrefix("-") ? "unknown option \(first)" : "unknown target \(first)")
        }
        var parsed = LoadArguments(target: target)
        if target == .mix {
            guard let text = remaining.popFirst(), let parts = Self.mix(text) else {
                return .invalid("mix needs targets and weights, such as signin:8,add-city:2")
            }
            parsed.mix = parts
        }
        var isLengthGiven = false
        var isWarmUpGiven = false
        while let option = remaining.popFirst() {
            let value = remaining.first
            func number(atLeast minimum: Double) -> Double? {
                guard let value, let number = Double(value), number.isFinite, number >= minimum else { return nil }
                remaining.removeFirst()
                return number
            }
            switch option {
            case "--in-flight":
                guard let count = number(atLeast: 1), count == count.rounded() else {
                    return .invalid("--in-flight needs a whole number of requests, 1 or more")
                }
                parsed.mode = .closedLoop(inFlight: Int(count))
            case "--rate":
                guard let rate = number(atLeast: .leastNonzeroMagnitude) else {
                    return .invalid("--rate needs a number of requests a second, more than 0")
                }
                parsed.mode = .openLoop(perSecond: rate)
            case "--duration":
                guard let seconds = number(atLeast: 0) else { return .invalid("--duration needs seconds, such as 5") }
                parsed.length = .duration(.seconds(seconds))
                isLengthGiven = true
            case "--requests":
                guard let count = number(atLeast: 1), count == count.rounded() else {
                    return .invalid("--requests needs a whole number, 1 or more")
                }
                parsed.length = .requests(Int(count))
                isLengthGiven = true
            case "--warm-up":
                guard let seconds = number(atLeast: 0) else { return .invalid("--warm-up needs seconds, such as 1") }
                parsed.warmUp = .duration(.seconds(seconds))
                isWarmUpGiven = true
            case "--stages", "--in-flight-stages":
                guard let text = remaining.popFirst(), let stages = Self.stages(text) else {
                    return .invalid("\(option) needs stages such as '10s:100,30s:=100,10s:0'")
                }
                parsed.mode = option == "--stages" ? .openLoopStages(stages) : .closedLoopStages(stages)
            case "--search-p99":
                guard let milliseconds = number(atLeast: .leastNonzeroMagnitude) else {
                    return .invalid("--search-p99 needs milliseconds, such as 50")
                }
                parsed.searchLimit = .milliseconds(milliseconds)
            case "--search-to":
                guard let rate = number(atLeast: .leastNonzeroMagnitude) else {
                    return .invalid("--search-to needs a number of requests a second, more than 0")
                }
                parsed.searchTo = rate
            case "--latency":
                guard let milliseconds = number(atLeast: 0) else {
                    return .invalid("--latency needs milliseconds, such as 10")
                }
                parsed.latency = .milliseconds(milliseconds)
            case "--on":
                guard let executor = remaining.popFirst(), ["main", "immediate"].contains(executor) else {
                    return .invalid("--on needs main or immediate")
                }
                parsed.answersOnMain = executor == "main"
            case "--auth-server":
                guard let url = remaining.popFirst().flatMap(HTTPAuthenticationAPI.baseURL(parsing:)) else {
                    return .invalid("--auth-server needs an http:// or https:// URL, such as http://127.0.0.1:8080")
                }
                parsed.authServer = url
            case "--data-dir":
                guard let directory = remaining.popFirst(), !directory.isEmpty else {
                    return .invalid("--data-dir needs a directory")
                }
                parsed.dataDirectory = directory
            case "--json":
                parsed.json = true
            case "--interval":
                guard let seconds = number(atLeast: 0.001) else {
                    return .invalid("--interval needs seconds, at least 0.001, such as 1")
                }
                parsed.interval = .seconds(seconds)
            case "--threshold":
                guard let text = remaining.popFirst() else {
                    return .invalid("--threshold needs a threshold, such as 'p99 < 50ms'")
                }
                do {
                    parsed.thresholds.append(try LoadThreshold(text))
                } catch {
                    return .invalid("\(error)")
                }
            case "--baseline":
                guard let path = remaining.popFirst(), !path.isEmpty else { return .invalid("--baseline needs a file") }
                parsed.baselinePath = path
            case "--min-effect":
                guard let percent = number(atLeast: 0) else {
                    return .invalid("--min-effect needs a percentage, such as 10")
                }
                parsed.minimumEffect = percent / 100
            case "--html", "--hlog", "--hgrm":
                guard let path = remaining.popFirst(), !path.isEmpty else { return .invalid("\(option) needs a file") }
                switch option {
                case "--html": parsed.pagePath = path
                case "--hlog": parsed.histogramLogPath = path
                default: parsed.percentileDistributionPath = path
                }
            default:
                return .invalid(option.hasPrefix("-") ? "unknown option \(option)" : "unexpected argument \(option)")
            }
        }
        // In stages, the run lasts as long as the stages (less a warm-up given), with none by default.
        if let stages = parsed.mode.stagesForDemo {
            if !isWarmUpGiven { parsed.warmUp = .duration(.zero) }
            if !isLengthGiven {
                let total = stages.reduce(Duration.zero) { $0 + $1.duration }
                guard case .duration(let warmUp) = parsed.warmUp, warmUp < total else {
                    return .invalid("the warm-up is longer than the stages")
                }
                parsed.length = .duration(total - warmUp)
            }
        }
        return .run(parsed)
    }

    /// `signin:8,add-city:2`: targets (not `mix`), each at most once, with weights of 1 or more.
    static func mix(_ text: String) -> [MixPart]? {
        var parts: [MixPart] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let words = item.split(separator: ":", omittingEmptySubsequences: false)
            guard words.count == 2, let target = Target(rawValue: String(words[0])), target != .mix,
                let weight = Int(words[1]), weight >= 1, !parts.contains(where: { $0.target == target })
            else { return nil }
            parts.append(MixPart(target, weight: weight))
        }
        return parts
    }

    /// `10s:100,30s:=100,500ms:0`: stages of a duration (`s`, `ms` or `m`; seconds when bare)
    /// and a target, ramping to it, or stepping to it when the target starts with `=`.
    static func stages(_ text: String) -> [LoadStage]? {
        var stages: [LoadStage] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let duration = Self.duration(parts[0].trimmingCharacters(in: .whitespaces))
            else { return nil }
            var target = parts[1].trimmingCharacters(in: .whitespaces)
            let isStep = target.hasPrefix("=")
            if isStep { target.removeFirst() }
            guard let value = Double(target), value >= 0, value.isFinite else { return nil }
            stages.append(LoadStage(duration: duration, target: value, shape: isStep ? .step : .ramp))
        }
        return stages
    }

    /// `10s`, `500ms`, `2m` or `10` (seconds).
    private static func duration(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("", 1)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = Double(text.dropLast(unit.suffix.count)), value >= 0, value.isFinite else { return nil }
            return .seconds(value * unit.seconds)
        }
        return nil
    }
}

extension LoadDriver.Mode {
    /// The stages of a mode in stages.
    fileprivate var stagesForDemo: [LoadStage]? {
        switch self {
        case .openLoopStages(let stages), .closedLoopStages(let stages): stages
        case .openLoop, .closedLoop: nil
        }
    }
}
