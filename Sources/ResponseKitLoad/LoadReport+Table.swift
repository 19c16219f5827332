@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadReport {
    /// The percentiles the table and the JSON show, with their labels.
    static let percentiles: [(label: String, percentile: Double)] = [
        ("p50", 50), ("p90", 90), ("p99", 99), ("p99.9", 99.9),
    ]

    /// The report for people: one figure a line, latencies in one row.
    ///
    /// ```text
    /// mode         closed loop, 64 in flight
    /// length       5 s, after a warm-up of 1,000 requests
    /// requests     312,345
    /// completed    312,300
    /// failed       45 (SignInError 45)
    /// cancelled    0
    /// elapsed      5.00 s
    /// throughput   62,442 answers/s
    /// latency      min        p50        p90        p99        p99.9      max
    ///              1.02 ms    1.10 ms    1.31 ms    2.05 ms    4.10 ms    12.3 ms
    /// answers on   main 100 %
    /// ```
    ///
    /// A run that measured no answer says `latency     no samples` instead of a row of zeros.
    public var table: String {
        var lines: [(String, String)] = [
            ("mode", mode.summary),
            (
                "length",
                warmUp.isNothing ? length.summary : "\(length.summary), after a warm-up of \(warmUp.summary)"
            ),
            ("requests", requests.grouped),
            ("completed", completed.grouped),
            ("failed", failed == 0 ? "0" : "\(failed.grouped) (\(Self.byCount(failures, separator: ", ")))"),
            (
                "cancelled",
                cancelledAtEnd == 0
                    ? cancelled.grouped : "\(cancelled.grouped) (\(cancelledAtEnd.grouped) unanswered at the end)"
            ),
            ("elapsed", elapsed.loadNanoseconds.latencyText),
            ("throughput", "\(Int(throughput.rounded()).grouped) answers/s"),
        ]
        let columns =
            [("min", latencies.minimum.loadNanoseconds)]
            + Self.percentiles.map { ($0.label, latencies.nanoseconds(atPercentile: $0.percentile)) }
            + [("max", latencies.maximum.loadNanoseconds)]
        let width = 11
        if latencies.isEmpty {
            // Zeros would read as latencies of nothing at all: say there were none.
            lines.append(("latency", "no samples"))
        } else {
            lines.append(("latency", columns.map { $0.0.padded(to: width) }.joined().trailingSpacesRemoved))
            lines.append(("", columns.map { $0.1.latencyText.padded(to: width) }.joined().trailingSpacesRemoved))
        }
        let total = executors.values.reduce(0, +)
        let percentages = executors.mapValues { total == 0 ? 0 : Int((Double($0) * 100 / Double(total)).rounded()) }
        lines.append(
            ("answers on", executors.isEmpty ? "none" : Self.byCount(percentages, separator: ", ", unit: " %")))
        return lines.map { "\($0.0.padded(to: 13))\($0.1)".trailingSpacesRemoved }.joined(separator: "\n")
    }

    /// `name count` pairs (`SignInError 45`), largest count first, then by name.
    private static func byCount(_ counts: [String: Int], separator: String, unit: String = "") -> String {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            .map { "\($0.key) \($0.value.grouped)\(unit)" }
            .joined(separator: separator)
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadDriver.Mode {
    /// `closed loop, 64 in flight`, `open loop, 1,000 requests/s`.
    var summary: String {
        switch self {
        case .closedLoop(let inFlight): "closed loop, \(inFlight.grouped) in flight"
        case .openLoop(let perSecond):
            perSecond == perSecond.rounded()
                ? "open loop, \(Int(perSecond).grouped) requests/s" : "open loop, \(perSecond) requests/s"
        case .openLoopStages(let stages): "open loop in stages, requests/s: \(stages.summary)"
        case .closedLoopStages(let stages): "closed loop in stages, in flight: \(stages.summary)"
        }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension [LoadStage] {
    /// `↗ 200 (30 s), → 500 (60 s)`: a ramp to 200 over 30 s, then a step to 500 for a minute.
    var summary: String {
        map { stage in
            let target = stage.target == stage.target.rounded() ? Int(stage.target).grouped : "\(stage.target)"
            let arrow = stage.shape == .ramp ? "↗" : "→"
            return "\(arrow) \(target) (\(LoadDriver.Length.duration(stage.duration).summary))"
        }
        .joined(separator: ", ")
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadDriver.Length {
    /// `5 s`, `2.50 s`, `1,000 requests`.
    var summary: String {
        switch self {
        case .duration(let duration):
            duration.components.attoseconds == 0
                ? "\(duration.components.seconds.grouped) s" : duration.loadNanoseconds.latencyText
        case .requests(let count): count == 1 ? "1 request" : "\(count.grouped) requests"
        }
    }

    /// Whether it lasts no time and no request: no warm-up.
    var isNothing: Bool {
        self == .requests(0) || self == .duration(.zero)
    }
}
