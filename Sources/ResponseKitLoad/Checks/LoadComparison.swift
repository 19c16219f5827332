import Foundation

/// Whether a run is worse than a baseline run (the last one on `main`, say) by more than this
/// machine's noise: the CI gate that does not cry wolf.
///
/// <!-- example: fragment -->
/// ```swift
/// func intervals(_ milliseconds: Int) -> [HistogramLog.Interval] {
///     (0..<10).map { second in
///         var latencies = LatencyHistogram()
///         for _ in 0..<100 { latencies.record(.milliseconds(milliseconds)) }
///         return HistogramLog.Interval(start: .seconds(second), length: .seconds(1), histogram: latencies)
///     }
/// }
/// func report(_ milliseconds: Int) -> LoadReport {
///     LoadReport(
///         mode: .closedLoop(inFlight: 1), length: .duration(.seconds(10)), warmUp: .requests(0), requests: 1_000,
///         completed: 1_000, failures: [:], cancelled: 0, cancelledAtEnd: 0, elapsed: .seconds(10),
///         latencies: intervals(milliseconds).reduce(into: LatencyHistogram()) { $0.merge($1.histogram) },
///         executors: [:], intervals: intervals(milliseconds))
/// }
/// #expect(LoadComparison(baseline: report(10), current: report(10)).regressions.isEmpty)
/// #expect(LoadComparison(baseline: report(10), current: report(15)).regressions.map(\.figure) == ["p50", "p99"])
/// ```
///
/// ## How it decides
///
/// One run's p99 is one number, and on a shared two-core machine the same code reads a few
/// per cent to a few tens of per cent apart from run to run. So the comparison takes its samples
/// from the runs' intervals (``LoadReport/intervals``, a second each by default): each interval's
/// p50, p99 and throughput is one sample, so a run of 10 seconds gives 10 of each. For each
/// figure it takes the ratio of the two runs' medians (current over baseline; baseline over
/// current for throughput, so that above 1 is worse for all three) and a 99 % confidence interval
/// of that ratio, by resampling both sides' intervals 2,000 times (a bootstrap, from a fixed
/// seed, so the same reports always give the same verdict). 99 %, not 95 %: with ten intervals a
/// side the bootstrap's interval is narrower than its level says. Over 2,000 pairs of synthetic
/// runs of the same code (±20 % from interval to interval, ten intervals), one pair still read as
/// a regression at 99 %; at 95 %, one of the first thousand did.
///
/// A figure **regressed** when the whole confidence interval lies above 1 + ``minimumEffect``
/// (10 % by default): the run is worse, surely (not noise) and by enough to matter (not a
/// difference nobody would act on). A run shorter than ``minimumIntervals`` intervals per side
/// (after leaving out a last interval shorter than half the others, and intervals of fewer than
/// 10 answers) is **inconclusive**: too few samples to tell, which is said, not failed.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadComparison: Sendable, Hashable, CustomStringConvertible {
    /// One figure compared.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// `p50`, `p99` or `throughput`.
        public let figure: String
        /// The median of the baseline's intervals: nanoseconds, or answers a second.
        public let baseline: Double
        /// The median of the current run's intervals.
        public let current: Double
        /// How much worse the current run is: 1.2 is 20 % worse (slower, or less throughput).
        public let ratio: Double
        /// The 99 % confidence interval of ``ratio``.
        public let confidenceInterval: ClosedRange<Double>
        /// Whether the whole interval lies beyond the minimum effect.
        public let isRegression: Bool

        /// `p99: 61.1 ms against 50.2 ms, 1.22× worse (99 % CI 1.15–1.30): regression`.
        public var description: String {
            let format = { (value: Double) in
                figure == "throughput"
                    ? "\(Int(value.rounded()).grouped)/s" : UInt64(max(value, 0).rounded()).latencyText
            }
            let verdict = isRegression ? ": regression" : ""
            return "\(figure): \(format(current)) against \(format(baseline)), "
                + String(
                    format: "%.2f× (99 %% CI %.2f–%.2f)", ratio, confidenceInterval.lowerBound,
                    confidenceInterval.upperBound) + verdict
        }
    }

    /// The fewest usable intervals each run needs for a verdict.
    public static let minimumIntervals = 5
    /// Intervals with fewer answers than this are left out: their p99 is not a p99.
    static let minimumAnswersPerInterval: UInt64 = 10

    /// How much worse a figure must surely be to count: 0.1 is 10 %.
    public let minimumEffect: Double
    /// Each figure compared; empty when ``inconclusiveReason`` says why not.
    public let findings: [Finding]
    /// Why no figure could be compared, or `nil`.
    public let inconclusiveReason: String?

    /// The figures that regressed.
    public var regressions: [Finding] { findings.filter(\.isRegression) }

    /// Compares `current` with `baseline`.
    ///
    /// - Parameters:
    ///   - baseline: the run to compare with, such as the last one on `main` (its JSON reads
    ///     back as a report).
    ///   - current: this run.
    ///   - minimumEffect: how much worse a figure must surely be to count; 10 % by default.
    public init(baseline: LoadReport, current: LoadReport, minimumEffect: Double = 0.1) {
        let effect = max(minimumEffect, 0)
        self.minimumEffect = effect
        let before = Self.usableIntervals(of: baseline)
        let after = Self.usableIntervals(of: current)
        guard before.count >= Self.minimumIntervals, after.count >= Self.minimumIntervals else {
            findings = []
            inconclusiveReason =
                "too few intervals to tell noise from a change: \(before.count) in the baseline and "
                + "\(after.count) in this run, \(Self.minimumIntervals) needed in each (run longer, or with a "
                + "shorter interval)"
            return
        }
        inconclusiveReason = nil
        var random = SplitMix64(seed: 0x5EED_1A7E_0C0A_1E5C)
        let figures: [(String, (HistogramLog.Interval) -> Double, Bool)] = [
            ("p50", { Double($0.histogram.nanoseconds(atPercentile: 50)) }, false),
            ("p99", { Double($0.histogram.nanoseconds(atPercentile: 99)) }, false),
            ("throughput", { Double($0.histogram.count) / max(Double($0.length.loadNanoseconds) / 1e9, 1e-9) }, true),
        ]
        findings = figures.map { name, value, higherIsBetter in
            let baselineValues = before.map(value)
            let currentValues = after.map(value)
            func worseness(_ baseline: [Double], _ current: [Double]) -> Double {
                let (b, c) = (Self.median(baseline), Self.median(current))
                let (numerator, denominator) = higherIsBetter ? (b, c) : (c, b)
                return numerator / max(denominator, .leastNonzeroMagnitude)
            }
            var resampled: [Double] = []
            resampled.reserveCapacity(2_000)
            for _ in 0..<2_000 {
                resampled.append(
                    worseness(
                        baselineValues.map { _ in baselineValues[random.index(below: baselineValues.count)] },
                        currentValues.map { _ in currentValues[random.index(below: currentValues.count)] }))
            }
            resampled.sort()
            let interval = resampled[9]...resampled[1_989]  // the middle 99 %
            return Finding(
                figure: name, baseline: Self.median(baselineValues), current: Self.median(currentValues),
                ratio: worseness(baselineValues, currentValues), confidenceInterval: interval,
                isRegression: interval.lowerBound > 1 + effect)
        }
    }

    /// What was compared and the verdict, a line each.
    public var description: String {
        if let inconclusiveReason { return "baseline: inconclusive: \(inconclusiveReason)" }
        let verdict =
            regressions.isEmpty
            ? "no regression beyond \(Int((minimumEffect * 100).rounded())) %"
            : "regressed: \(regressions.map(\.figure).joined(separator: ", "))"
        return (["baseline: \(verdict)"] + findings.map { "  \($0)" }).joined(separator: "\n")
    }

    /// The intervals that make a sample: enough answers, and not a short last one.
    private static func usableIntervals(of report: LoadReport) -> [HistogramLog.Interval] {
        let all = report.intervals  // unpacked once
        var intervals = all.filter { $0.histogram.count >= minimumAnswersPerInterval }
        let typical = median(all.map { Double($0.length.loadNanoseconds) })
        if let last = intervals.last, Double(last.length.loadNanoseconds) < typical / 2 { intervals.removeLast() }
        return intervals
    }

    private static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// A small, fast random number generator with a fixed seed, so that a comparison's resampling,
/// and so its verdict, is the same for the same reports.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number from 0 up to `bound`, not including it.
    mutating func index(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
