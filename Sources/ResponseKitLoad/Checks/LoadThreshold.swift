import Foundation

/// A pass mark for a run, written as people write them in k6 or a CI script: `p99 < 50ms`,
/// `throughput > 1000/s`, `failed < 0.1%`. ``LoadReport/check(_:)`` says which a report misses.
///
/// <!-- example: fragment -->
/// ```swift
/// let thresholds = try ["p99 < 50ms", "throughput > 1000/s", "failed < 0.1%"].map(LoadThreshold.init)
/// var latencies = LatencyHistogram()
/// for _ in 0..<2_000 { latencies.record(.milliseconds(12)) }
/// let report = LoadReport(
///     mode: .closedLoop(inFlight: 8), length: .duration(.seconds(1)), warmUp: .requests(0), requests: 2_000,
///     completed: 2_000, failures: [:], cancelled: 0, cancelledAtEnd: 0, elapsed: .seconds(1),
///     latencies: latencies, executors: ["main": 2_000])
/// #expect(report.check(thresholds).isEmpty)
/// ```
///
/// What can be checked, on the left of `<`, `<=`, `>` or `>=`:
/// - a latency: `min`, `mean`, `max`, or a percentile `p50`, `p99`, `p99.9` (any `pN` from 0 to
///   100), against a duration in `ns`, `us` (or `µs`), `ms` or `s`;
/// - `throughput`, answers per second, against a number (`/s` after it is allowed);
/// - `failed` or `cancelled`: a count, or with `%` a share of the answers.
///
/// A latency threshold on a run without answers fails: there is no latency to pass it.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadThreshold: Sendable, Hashable, CustomStringConvertible {
    /// Why a text is not a threshold.
    public struct ParseError: Error, Hashable, CustomStringConvertible {
        /// The text.
        public let text: String
        /// What is wrong with it.
        public let reason: String

        /// `threshold "p99 < fast": …`.
        public var description: String { "threshold \"\(text)\": \(reason)" }
    }

    /// A threshold a report misses, with what the report measured.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        /// The threshold.
        public let threshold: LoadThreshold
        /// What the report measured, as text (`61.1 ms`, `812 answers/s`, `0.4 %`).
        public let measured: String

        /// `p99 < 50ms: measured 61.1 ms`.
        public var description: String { "\(threshold): measured \(measured)" }
    }

    enum Metric: Hashable {
        case latency(percentile: Double?, name: String)  // nil: the mean
        case throughput
        case failed, cancelled
    }

    enum Comparison: String, Hashable, CaseIterable {
        case atMost = "<="
        case atLeast = ">="
        case below = "<"
        case above = ">"
    }

    let metric: Metric
    let comparison: Comparison
    /// Nanoseconds for a latency, answers a second for throughput, a count or a fraction (with
    /// ``isShare``) for failed and cancelled.
    let limit: Double
    let isShare: Bool
    /// The text it was read from, as given.
    public let description: String

    /// Reads a threshold such as `p99 < 50ms`.
    ///
    /// - Parameter text: the threshold; spaces are optional.
    /// - Throws: ``ParseError`` naming what is wrong: an unknown figure, a missing comparison, a
    ///   number without a unit where one is needed.
    public init(_ text: String) throws {
        description = text.trimmingCharacters(in: .whitespaces)
        let compact = description.replacingOccurrences(of: " ", with: "")
        guard
            let comparison = Comparison.allCases.first(where: { compact.contains($0.rawValue) }),
            let range = compact.range(of: comparison.rawValue)
        else { throw ParseError(text: text, reason: "needs <, <=, > or >= between a figure and a limit") }
        self.comparison = comparison
        let name = String(compact[..<range.lowerBound]).lowercased()
        var value = String(compact[range.upperBound...]).lowercased()
        switch name {
        case "throughput":
            metric = .throughput
            if value.hasSuffix("/s") { value.removeLast(2) }
            isShare = false
            guard let number = Double(value), number.isFinite, number >= 0 else {
                throw ParseError(text: text, reason: "throughput needs answers a second, such as 1000/s")
            }
            limit = number
        case "failed", "cancelled":
            metric = name == "failed" ? .failed : .cancelled
            isShare = value.hasSuffix("%")
            if isShare { value.removeLast() }
            guard let number = Double(value), number.isFinite, number >= 0 else {
                throw ParseError(text: text, reason: "\(name) needs a count or a share, such as 5 or 0.1%")
            }
            limit = isShare ? number / 100 : number
        default:
            metric = try Self.latencyMetric(named: name, in: text)
            isShare = false
            limit = try Self.nanoseconds(in: value, of: text)
        }
    }

    private static func latencyMetric(named name: String, in text: String) throws -> Metric {
        switch name {
        case "min": return .latency(percentile: 0, name: name)
        case "max": return .latency(percentile: 100, name: name)
        case "mean": return .latency(percentile: nil, name: name)
        default:
            guard name.hasPrefix("p"), let percentile = Double(name.dropFirst()), (0...100).contains(percentile) else {
                throw ParseError(
                    text: text,
                    reason:
                        "unknown figure \"\(name)\": use p50, p99, p99.9, min, mean, max, throughput, failed or cancelled"
                )
            }
            return .latency(percentile: percentile, name: name)
        }
    }

    private static func nanoseconds(in value: String, of text: String) throws -> Double {
        let units: [(String, Double)] = [("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)]
        for (unit, scale) in units where value.hasSuffix(unit) {
            if let number = Double(value.dropLast(unit.count)), number.isFinite, number >= 0 {
                return number * scale
            }
        }
        throw ParseError(text: text, reason: "a latency needs a duration with its unit, such as 50ms (ns, us, ms, s)")
    }

    /// What `report` measured for this threshold's figure, in the threshold's terms, and as text.
    func measure(_ report: LoadReport) -> (value: Double?, text: String) {
        switch metric {
        case .latency(let percentile, _):
            guard !report.latencies.isEmpty else { return (nil, "no samples") }
            let nanoseconds =
                percentile.map { report.latencies.nanoseconds(atPercentile: $0) }
                ?? report.latencies.mean.loadNanoseconds
            return (Double(nanoseconds), nanoseconds.latencyText)
        case .throughput:
            return (report.throughput, "\(Int(report.throughput.rounded()).grouped) answers/s")
        case .failed, .cancelled:
            let count = metric == .failed ? report.failed : report.cancelled
            guard isShare else { return (Double(count), count.grouped) }
            let share = report.answers == 0 ? 0 : Double(count) / Double(report.answers)
            return (share, String(format: "%.3g %%", share * 100))
        }
    }

    /// Whether `report` passes, and what it measured.
    func evaluate(_ report: LoadReport) -> Violation? {
        let (value, text) = measure(report)
        guard let value else { return Violation(threshold: self, measured: text) }
        let passes =
            switch comparison {
            case .below: value < limit
            case .atMost: value <= limit
            case .above: value > limit
            case .atLeast: value >= limit
            }
        return passes ? nil : Violation(threshold: self, measured: text)
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadReport {
    /// The thresholds this report misses, in the order given; empty when it passes them all.
    ///
    /// - Parameter thresholds: the pass marks.
    /// - Returns: each missed threshold with what was measured.
    public func check(_ thresholds: [LoadThreshold]) -> [LoadThreshold.Violation] {
        thresholds.compactMap { $0.evaluate(self) }
    }
}
