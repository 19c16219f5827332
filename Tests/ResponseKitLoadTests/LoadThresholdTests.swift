import ResponseKitLoad
import SeededRandom
import Testing

struct LoadThresholdTests {
    /// 1,000 answers of 1 to 1,000 µs (p99 990 µs), 10 failed, over 2 s: 500 answers a second.
    static let report: LoadReport = {
        var latencies = LatencyHistogram()
        for microseconds in 1...1_000 { latencies.record(.microseconds(microseconds)) }
        return LoadReport(
            mode: .closedLoop(inFlight: 4), length: .requests(1_000), warmUp: .requests(0), requests: 1_000,
            completed: 990, failures: ["SignInError": 10], cancelled: 0, cancelledAtEnd: 0, elapsed: .seconds(2),
            latencies: latencies, executors: ["main": 1_000])
    }()

    @Test(arguments: [
        "p99 < 1ms", "p99<=995us", "p50 > 499µs", "max <= 1s", "min >= 1000ns", "mean < 0.6ms", "p99.9 < 1.01ms",
        "throughput > 499/s", "throughput >= 500", "failed < 1.1%", "failed <= 10", "cancelled < 1",
    ])
    func aThresholdTheRunMeets_passes(text: String) throws {
        #expect(Self.report.check([try LoadThreshold(text)]).isEmpty)
    }

    @Test(arguments: [
        ("p99 < 900us", "p99 < 900us: measured 991 µs"),
        ("throughput > 1000/s", "throughput > 1000/s: measured 500 answers/s"),
        ("failed < 0.1%", "failed < 0.1%: measured 1 %"),
        ("failed < 5", "failed < 5: measured 10"),
        ("max < 1ms", "max < 1ms: measured 1.00 ms"),
    ])
    func aThresholdTheRunMisses_saysWhatWasMeasured(text: String, expected: String) throws {
        let violations = Self.report.check([try LoadThreshold(text)])
        #expect(violations.map(\.description) == [expected])
    }

    @Test func aLatencyThreshold_onARunWithoutAnswers_fails() throws {
        let empty = LoadReport(
            mode: .closedLoop(inFlight: 1), length: .requests(0), warmUp: .requests(0), requests: 0, completed: 0,
            failures: [:], cancelled: 0, cancelledAtEnd: 0, elapsed: .zero, latencies: LatencyHistogram(),
            executors: [:])
        #expect(empty.check([try LoadThreshold("p99 < 1s")]).map(\.description) == ["p99 < 1s: measured no samples"])
    }

    @Test(arguments: [
        ("p99 50ms", "needs <, <=, > or >= between a figure and a limit"),
        ("p99 < 50", "a latency needs a duration with its unit, such as 50ms (ns, us, ms, s)"),
        ("p101 < 5ms", "unknown figure \"p101\""),
        ("latency < 5ms", "unknown figure \"latency\""),
        ("throughput > fast", "throughput needs answers a second, such as 1000/s"),
        ("failed < many", "failed needs a count or a share, such as 5 or 0.1%"),
    ])
    func aMalformedThreshold_saysWhatIsWrong(text: String, reason: String) {
        do {
            _ = try LoadThreshold(text)
            Issue.record("\(text) was read")
        } catch {
            #expect("\(error)".hasPrefix("threshold \"\(text)\": \(reason)"), "\(error)")
        }
    }
}

struct LoadComparisonTests {
    /// A report of `count` one-second intervals whose latencies and answers vary at random by up to
    /// `noise` either way around `milliseconds` and `perSecond`, as runs on a shared machine do.
    static func report(
        milliseconds: Double, perSecond: Int = 500, intervals count: Int = 10, noise: Double = 0.2, seed: UInt64
    ) -> LoadReport {
        var random = SeededGenerator(seed: seed)
        let intervals = (0..<count).map { second -> HistogramLog.Interval in
            var latencies = LatencyHistogram()
            let scale = 1 + noise * (2 * Double.random(in: 0..<1, using: &random) - 1)
            let answers = Int(Double(perSecond) * (1 + noise * (2 * Double.random(in: 0..<1, using: &random) - 1)))
            for _ in 0..<answers {
                latencies.record(
                    .microseconds(Int(milliseconds * 1_000 * scale * (0.5 + Double.random(in: 0..<1, using: &random)))))
            }
            return HistogramLog.Interval(start: .seconds(second), length: .seconds(1), histogram: latencies)
        }
        let all = intervals.reduce(into: LatencyHistogram()) { $0.merge($1.histogram) }
        return LoadReport(
            mode: .closedLoop(inFlight: 8), length: .duration(.seconds(count)), warmUp: .requests(0),
            requests: Int(all.count), completed: Int(all.count), failures: [:], cancelled: 0, cancelledAtEnd: 0,
            elapsed: .seconds(count), latencies: all, executors: [:], intervals: intervals)
    }

    @Test func theSameCode_measuredTwiceWithNoise_neverRegresses() {
        // 60 pairs of runs of one distribution, ±20 % from interval to interval. (Run once over
        // 2 × 1,000 pairs, 2026-11-29: one pair read as a regression, at seeds 5,043 and 7,043.
        // The rule is conservative, not infallible: see LoadComparison.)
        var alarms: [String] = []
        for seed in 0..<60 as Range<UInt64> {
            let comparison = LoadComparison(
                baseline: Self.report(milliseconds: 10, perSecond: 100, seed: seed),
                current: Self.report(milliseconds: 10, perSecond: 100, seed: seed + 1_000))
            if !comparison.regressions.isEmpty { alarms.append("seed \(seed): \(comparison)") }
        }
        #expect(alarms.isEmpty, "\(alarms.count) alarms: \(alarms.prefix(3))")
    }

    @Test func aThirdSlower_regresses_inLatency() {
        let comparison = LoadComparison(
            baseline: Self.report(milliseconds: 10, seed: 1), current: Self.report(milliseconds: 13.3, seed: 2))
        #expect(comparison.regressions.map(\.figure) == ["p50", "p99"])
        #expect(comparison.description.hasPrefix("baseline: regressed: p50, p99\n"))
    }

    @Test func aSmallSlowdown_isBelowTheMinimumEffect_andDoesNotCount() {
        let comparison = LoadComparison(
            baseline: Self.report(milliseconds: 10, noise: 0.02, seed: 1),
            current: Self.report(milliseconds: 10.5, noise: 0.02, seed: 2))
        #expect(comparison.findings.first { $0.figure == "p50" }.map { $0.ratio > 1.02 } == true)
        #expect(comparison.regressions.isEmpty)
    }

    @Test func lessThroughput_regresses_inThroughput() {
        let comparison = LoadComparison(
            baseline: Self.report(milliseconds: 10, perSecond: 1_000, seed: 1),
            current: Self.report(milliseconds: 10, perSecond: 600, seed: 2))
        #expect(comparison.regressions.map(\.figure) == ["throughput"])
    }

    @Test func tooFewIntervals_isInconclusive_notAFailure() {
        let comparison = LoadComparison(
            baseline: Self.report(milliseconds: 10, intervals: 3, seed: 1),
            current: Self.report(milliseconds: 20, intervals: 3, seed: 2))
        #expect(comparison.regressions.isEmpty)
        #expect(comparison.inconclusiveReason?.hasPrefix("too few intervals to tell noise from a change: 3") == true)
    }

    @Test func theVerdict_isTheSameEveryTime() {
        let baseline = Self.report(milliseconds: 10, seed: 7)
        let current = Self.report(milliseconds: 11.5, seed: 8)
        #expect(
            LoadComparison(baseline: baseline, current: current) == LoadComparison(baseline: baseline, current: current)
        )
    }
}
