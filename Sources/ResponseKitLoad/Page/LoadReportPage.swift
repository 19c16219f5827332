import Foundation

/// A load run as a page people look at: one self-contained HTML file with inline SVG pictures, no
/// script and nothing fetched, so it opens offline, in any browser, as a CI artifact.
///
/// For each run, side by side when there are several (scenarios, or a run and its baseline):
/// - **the percentile spectrum** on HdrHistogram's axis, where each step right is ten times rarer
///   (90 %, 99 %, 99.9 %…), so that p99.9 gets as much room as the median;
/// - **throughput over the run**, answers a second per interval (``LoadReport/intervals``), where
///   a warm-up or a stall shows;
/// - **p50 and p99 over the run**, per interval;
/// - the report's table.
///
/// <!-- example: fragment -->
/// ```swift
/// var latencies = LatencyHistogram()
/// for microseconds in 1...1_000 { latencies.record(.microseconds(microseconds)) }
/// let report = LoadReport(
///     mode: .closedLoop(inFlight: 8), length: .requests(1_000), warmUp: .requests(0), requests: 1_000,
///     completed: 1_000, failures: [:], cancelled: 0, cancelledAtEnd: 0, elapsed: .seconds(1),
///     latencies: latencies, executors: ["main": 1_000])
/// let html = LoadReportPage(title: "Sign-in", runs: [("64 in flight", report)]).html
/// #expect(html.contains("<svg") && !html.contains("<script"))
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadReportPage: Sendable {
    /// The page's heading.
    public let title: String
    /// The runs, each with its name, in the order they are shown.
    public let runs: [(name: String, report: LoadReport)]

    /// Makes a page.
    ///
    /// - Parameters:
    ///   - title: the page's heading.
    ///   - runs: the runs to show, each with a name (a scenario, a configuration, "baseline").
    public init(title: String, runs: [(name: String, report: LoadReport)]) {
        self.title = title
        self.runs = runs
    }

    /// The page: an HTML document.
    public var html: String {
        let columns = runs.enumerated().map { index, run in
            column(name: run.name, report: run.report, color: Self.palette[index % Self.palette.count])
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(title.htmlEscaped)</title>
            <style>
            body { font: 14px -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px; color: #1b1f24; }
            h1 { font-size: 20px; margin: 0 0 16px; }
            h2 { font-size: 16px; margin: 0 0 8px; }
            .runs { display: flex; flex-wrap: wrap; gap: 24px; }
            .run { flex: 0 0 auto; }
            pre { font: 12px ui-monospace, Menlo, Consolas, monospace; background: #f6f8fa; padding: 8px; }
            svg { display: block; margin-bottom: 8px; }
            svg .title { font-size: 13px; font-weight: 600; }
            svg .tick, svg .legend { font-size: 11px; fill: #57606a; }
            svg .axis { font-size: 11px; fill: #1b1f24; }
            svg .plot { fill: #ffffff; stroke: #d0d7de; }
            svg .grid { stroke: #eaeef2; }
            svg .empty { font-size: 14px; fill: #8c959f; }
            </style>
            </head>
            <body>
            <h1>\(title.htmlEscaped)</h1>
            <div class="runs">
            \(columns.joined(separator: "\n"))
            </div>
            </body>
            </html>

            """
    }

    static let palette = ["#0969da", "#cf222e", "#1a7f37", "#8250df", "#bc4c00"]

    private func column(name: String, report: LoadReport, color: String) -> String {
        let drawn = Self.drawnIntervals(report.intervals)  // unpacked once, for both pictures
        return """
            <section class="run">
            <h2>\(name.htmlEscaped)</h2>
            \(Self.spectrum(of: report.latencies, color: color).svg)
            \(Self.throughput(of: drawn, color: color).svg)
            \(Self.latencyOverTime(of: drawn).svg)
            <pre>\(report.table.htmlEscaped)</pre>
            </section>
            """
    }

    /// The latency at each percentile, x on HdrHistogram's axis: log₁₀(1 / (1 − p)).
    static func spectrum(of latencies: LatencyHistogram, color: String) -> SVGChart {
        let count = Double(latencies.count)
        let reach = count > 1 ? log10(count) : 0  // the rarest step the samples resolve
        var points: [(x: Double, y: Double)] = []
        if !latencies.isEmpty {
            var step = 0.0
            while step < reach {
                let percentile = 100 * (1 - pow(10, -step))
                points.append((step, Double(latencies.nanoseconds(atPercentile: percentile))))
                step += 0.05
            }
            points.append((max(reach, 0.05), Double(latencies.maximum.loadNanoseconds)))
        }
        let highest = points.map(\.y).max() ?? 0
        let (scale, unit) = latencyUnit(for: highest)
        let (yTicks, top) = SVGChart.linearTicks(upTo: highest / scale) { tickLabel($0, unit) }
        let labels = ["0%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"]
        let right = max(ceil(reach), 1)
        return SVGChart(
            title: "Latency by percentile", xLabel: "percentile", yLabel: "latency (\(unit))",
            xTicks: labels.indices.map { SVGChart.Tick(value: Double($0), label: labels[$0]) },
            yTicks: yTicks, xRange: 0...right, yRange: 0...top,
            series: [.init(name: "latency", points: points.map { ($0.x, $0.y / scale) }, color: color)])
    }

    /// The intervals to draw over time: all but a last one shorter than half the others (the
    /// run's end), whose few answers would read as a dip or a spike that was not there.
    static func drawnIntervals(_ intervals: [HistogramLog.Interval]) -> [HistogramLog.Interval] {
        var intervals = intervals
        let lengths = intervals.map(\.length).sorted()
        if intervals.count > 1, let last = intervals.last, last.length * 2 < lengths[lengths.count / 2] {
            intervals.removeLast()
        }
        return intervals
    }

    /// Answers a second in each interval.
    static func throughput(of intervals: [HistogramLog.Interval], color: String) -> SVGChart {
        let points = intervals.map { interval -> (x: Double, y: Double) in
            let seconds = Double(interval.length.loadNanoseconds) / 1e9
            return (
                Double((interval.start + interval.length).loadNanoseconds) / 1e9,
                seconds > 0 ? Double(interval.histogram.count) / seconds : 0
            )
        }
        let (yTicks, top) = SVGChart.linearTicks(upTo: points.map(\.y).max() ?? 0) { Int($0).grouped }
        let (xTicks, xRange) = timeAxis(of: intervals)
        return SVGChart(
            title: "Throughput over the run", xLabel: "time (s)", yLabel: "answers/s", xTicks: xTicks, yTicks: yTicks,
            xRange: xRange, yRange: 0...top,
            series: [.init(name: "answers/s", points: points, color: color)])
    }

    /// p50 and p99 of each interval that had answers.
    static func latencyOverTime(of intervals: [HistogramLog.Interval]) -> SVGChart {
        let answered = intervals.filter { !$0.histogram.isEmpty }
        func points(_ percentile: Double) -> [(x: Double, y: Double)] {
            answered.map {
                (
                    Double(($0.start + $0.length).loadNanoseconds) / 1e9,
                    Double($0.histogram.nanoseconds(atPercentile: percentile))
                )
            }
        }
        let p50 = points(50)
        let p99 = points(99)
        let highest = p99.map(\.y).max() ?? 0
        let (scale, unit) = latencyUnit(for: highest)
        let (yTicks, top) = SVGChart.linearTicks(upTo: highest / scale) { tickLabel($0, unit) }
        let (xTicks, xRange) = timeAxis(of: intervals)
        return SVGChart(
            title: "Latency over the run", xLabel: "time (s)", yLabel: "latency (\(unit))", xTicks: xTicks,
            yTicks: yTicks,
            xRange: xRange, yRange: 0...top,
            series: [
                .init(name: "p50", points: p50.map { ($0.x, $0.y / scale) }, color: "#0969da"),
                .init(name: "p99", points: p99.map { ($0.x, $0.y / scale) }, color: "#cf222e"),
            ])
    }

    /// The time axis both pictures over the run share: from the first interval's start to past
    /// the last one's end, in seconds.
    private static func timeAxis(of intervals: [HistogramLog.Interval]) -> ([SVGChart.Tick], ClosedRange<Double>) {
        let start = Double(intervals.first?.start.loadNanoseconds ?? 0) / 1e9
        let end = intervals.map { Double(($0.start + $0.length).loadNanoseconds) / 1e9 }.max() ?? 0
        let (ticks, top) = SVGChart.linearTicks(upTo: max(end, 1)) { value in
            value == value.rounded() ? "\(Int(value))" : String(format: "%g", value)
        }
        return (ticks, start...top)
    }

    /// Nanoseconds per unit, and the unit, for latencies up to `maximum` nanoseconds.
    private static func latencyUnit(for maximum: Double) -> (Double, String) {
        switch maximum {
        case 1e9...: (1e9, "s")
        case 1e6...: (1e6, "ms")
        case 1e3...: (1e3, "µs")
        default: (1, "ns")
        }
    }

    private static func tickLabel(_ value: Double, _ unit: String) -> String {
        value == value.rounded() ? "\(Int(value)) \(unit)" : String(format: "%g", value) + " " + unit
    }
}
