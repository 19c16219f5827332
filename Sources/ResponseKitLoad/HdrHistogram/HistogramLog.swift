import Foundation

/// Latencies over time in HdrHistogram's interval log format (`.hlog`): one compressed histogram
/// per interval of a run, as wrk2, Gatling and HdrHistogram's `HistogramLogProcessor` write and
/// read them.
///
/// A ``LoadReport`` carries its run's intervals (``LoadReport/intervals``); ``LoadReport/histogramLog(startTime:)``
/// makes the log of them. A log reads back from its text (``init(parsing:)``), written here or by
/// HdrHistogram's own tools.
///
/// <!-- example: fragment -->
/// ```swift
/// var first = LatencyHistogram()
/// first.record(.milliseconds(3))
/// let log = HistogramLog(
///     startTime: Date(timeIntervalSince1970: 1_700_000_000),
///     intervals: [.init(start: .zero, length: .seconds(1), histogram: first)])
/// let text = log.text                           // "#[Logged with ResponseKitLoad]\n…"
/// let read = try HistogramLog(parsing: text)
/// #expect(read.intervals.map(\.histogram.count) == [1])
/// ```
///
/// What the text holds, line by line: the format's version, the start time (seconds since 1970,
/// and as a date), the base time the intervals' timestamps count from (the same), the column
/// legend, then per interval its start and length in seconds, its largest latency in milliseconds
/// and its histogram (``LatencyHistogram/hdrHistogramEncoded``).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct HistogramLog: Sendable, Hashable {
    /// One interval: when it started, how long it lasted, and the latencies of the answers that
    /// came in it.
    public struct Interval: Sendable, Hashable {
        /// When the interval started, from the log's ``HistogramLog/startTime``; millisecond
        /// precision in the text.
        public var start: Duration
        /// How long it lasted; millisecond precision in the text.
        public var length: Duration
        /// The latencies recorded in it.
        public var histogram: LatencyHistogram
        /// HdrHistogram's tag, which tells apart the histograms of several series in one log.
        public var tag: String?

        /// Makes an interval.
        ///
        /// - Parameters:
        ///   - start: when it started, from the log's start.
        ///   - length: how long it lasted.
        ///   - histogram: the latencies recorded in it.
        ///   - tag: a name for its series, without commas or spaces; `nil` for none.
        public init(start: Duration, length: Duration, histogram: LatencyHistogram, tag: String? = nil) {
            self.start = start
            self.length = length
            self.histogram = histogram
            self.tag = tag
        }
    }

    /// Why some text is not an interval log.
    public struct FormatError: Error, Hashable, CustomStringConvertible {
        /// The line that could not be read, counting from 1.
        public let line: Int
        /// What was wrong with it.
        public let reason: String

        /// `HistogramLog, line 7: …`.
        public var description: String { "HistogramLog, line \(line): \(reason)" }
    }

    /// When the run started, to millisecond precision in the text; `nil` when unknown (the text
    /// then says nothing of it, and interval starts count from zero).
    public var startTime: Date?
    /// The intervals, in order.
    public var intervals: [Interval]

    /// Makes a log.
    ///
    /// - Parameters:
    ///   - startTime: when the run started; `nil` when unknown.
    ///   - intervals: the intervals, in order.
    public init(startTime: Date? = nil, intervals: [Interval] = []) {
        self.startTime = startTime
        self.intervals = intervals
    }

    /// All the intervals' latencies in one histogram.
    public var total: LatencyHistogram {
        intervals.reduce(into: LatencyHistogram()) { $0.merge($1.histogram) }
    }

    // MARK: - Writing

    /// The log as HdrHistogram's `HistogramLogWriter` writes it (format version 1.3).
    public var text: String {
        var text = "#[Logged with ResponseKitLoad]\n#[Histogram log format version 1.3]\n"
        if let startTime {
            let seconds = Self.seconds(startTime.timeIntervalSince1970)
            text += "#[StartTime: \(seconds) (seconds since epoch), \(Self.dateText(startTime))]\n"
            text += "#[BaseTime: \(seconds) (seconds since epoch)]\n"
        }
        text += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
        for interval in intervals {
            if let tag = interval.tag { text += "Tag=\(tag)," }
            let start = Self.seconds(interval.start)
            let length = Self.seconds(interval.length)
            // HdrHistogram writes the interval's maximum (its bucket's highest value) in
            // milliseconds, for a reader that wants the peaks without decoding.
            let maximum =
                interval.histogram.isEmpty
                ? 0 : LatencyHistogram.highestEquivalentValue(of: interval.histogram.maximum.loadNanoseconds)
            text += "\(start),\(length),\(Self.threeDecimals.format(Double(maximum) / 1e6)),"
            text += interval.histogram.hdrHistogramEncoded + "\n"
        }
        return text
    }

    /// Java's "%.3f", as HdrHistogram's log writer prints times (seconds) and maxima (milliseconds).
    private static let threeDecimals = JavaFixedPoint(precision: 3)

    private static func seconds(_ duration: Duration) -> String {
        threeDecimals.format(Double(duration.loadNanoseconds) / 1e9)
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        threeDecimals.format(interval)
    }

    private static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE MMM dd HH:mm:ss 'UTC' yyyy"  // Java's Date.toString(), in UTC
        return formatter.string(from: date)
    }

    // MARK: - Reading

    /// Reads a log from its text: written by ``text``, or by HdrHistogram's tools.
    ///
    /// Interval timestamps are taken as HdrHistogram's reader takes them: relative to the
    /// `BaseTime` when the log has one; absolute (seconds since 1970) when they are, and then
    /// made relative to the start time; relative otherwise. Comment lines and the legend are
    /// skipped.
    ///
    /// - Parameter text: the log.
    /// - Throws: ``FormatError`` naming the first line that is neither a comment, the legend nor
    ///   an interval, or whose histogram does not decode.
    public init(parsing text: String) throws {
        var startSeconds: Double?
        var baseSeconds: Double?
        var parsed: [(start: Double, length: Double, histogram: LatencyHistogram, tag: String?)] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("\"StartTimestamp\"") { continue }
            if line.hasPrefix("#") {
                if line.hasPrefix("#[StartTime: ") { startSeconds = Self.leadingNumber(of: line.dropFirst(13)) }
                if line.hasPrefix("#[BaseTime: ") { baseSeconds = Self.leadingNumber(of: line.dropFirst(12)) }
                continue
            }
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var tag: String?
            if let first = fields.first, first.hasPrefix("Tag=") {
                tag = String(first.dropFirst(4))
                fields.removeFirst()
            }
            guard fields.count == 4, let start = Double(fields[0]), let length = Double(fields[1]),
                Double(fields[2]) != nil, start.isFinite, length.isFinite, start >= 0, length >= 0
            else {
                throw FormatError(line: lineNumber, reason: "not an interval: \(line.prefix(80))")
            }
            let histogram: LatencyHistogram
            do {
                histogram = try LatencyHistogram(hdrHistogramEncoded: fields[3])
            } catch {
                throw FormatError(line: lineNumber, reason: "\(error)")
            }
            parsed.append((start, length, histogram, tag))
        }
        // Timestamps as HdrHistogram's reader takes them: from the base time when there is one,
        // absolute when they are past a year, else from the start time.
        let firstStart = parsed.first?.start ?? 0
        let isAbsolute = baseSeconds == nil && firstStart > 365 * 24 * 3600
        let origin = baseSeconds ?? (isAbsolute ? 0 : startSeconds ?? 0)
        let logStart = startSeconds ?? baseSeconds ?? (isAbsolute ? firstStart : nil)
        startTime = logStart.map { Date(timeIntervalSince1970: $0) }
        intervals = parsed.map { entry in
            let fromLogStart = entry.start + origin - (logStart ?? 0)
            return Interval(
                start: .milliseconds(Int64((Swift.max(fromLogStart, 0) * 1000).rounded())),
                length: .milliseconds(Int64((entry.length * 1000).rounded())),
                histogram: entry.histogram, tag: entry.tag)
        }
    }

    private static func leadingNumber(of text: Substring) -> Double? {
        Double(text.prefix { $0.isNumber || $0 == "." })
    }
}
