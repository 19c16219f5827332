import Foundation

/// The report's JSON: figures by name, durations in whole nanoseconds, the derived figures
/// (throughput, the latency summary) written for readers and recomputed on decoding.
///
/// ```json
/// {"cancelled":0,"cancelledAtEnd":0,"completed":1000,"elapsedNanoseconds":1002000000,
///  "executors":{"main":1000},"failures":{},"histogram":{"buckets":[[1015808,412],…],…},
///  "latencyNanoseconds":{"max":1990000,"mean":1210000,"min":1000000,"p50":1019904,…},
///  "length":{"requests":1000},"mode":{"closedLoop":{"inFlight":64}},"requests":1000,
///  "intervals":[{"hdrHistogram":"HISTFAAAA…","lengthNanoseconds":1000000000,…,"startNanoseconds":0}],
///  "throughputPerSecond":998.0,"warmUp":{"requests":0}}
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadReport: Codable {
    private enum CodingKeys: String, CodingKey {
        case mode, length, warmUp, requests, completed, failures, cancelled, cancelledAtEnd, executors, histogram
        case elapsedNanoseconds, throughputPerSecond, latencyNanoseconds, intervals
    }

    /// One of ``LoadReport/intervals``: its histogram in HdrHistogram's compressed encoding (as an
    /// `.hlog` line carries it: compact, and read by HdrHistogram's libraries) with the exact
    /// figures it leaves out:
    /// `{"startNanoseconds":…,"lengthNanoseconds":…,"hdrHistogram":"HISTF…","minimumNanoseconds":…,…}`.
    private struct CodedInterval: Codable {
        let startNanoseconds: UInt64
        let lengthNanoseconds: UInt64
        let hdrHistogram: String
        let minimumNanoseconds: UInt64
        let maximumNanoseconds: UInt64
        let totalNanoseconds: UInt64
    }

    /// The report as one line of JSON, keys sorted.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain numbers, strings and dictionaries of them cannot fail.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes the report as described in the type's discussion.
    ///
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        try container.encode(length, forKey: .length)
        try container.encode(warmUp, forKey: .warmUp)
        try container.encode(requests, forKey: .requests)
        try container.encode(completed, forKey: .completed)
        try container.encode(failures, forKey: .failures)
        try container.encode(cancelled, forKey: .cancelled)
        try container.encode(cancelledAtEnd, forKey: .cancelledAtEnd)
        try container.encode(executors, forKey: .executors)
        try container.encode(latencies, forKey: .histogram)
        try container.encode(elapsed.loadNanoseconds, forKey: .elapsedNanoseconds)
        try container.encode(throughput, forKey: .throughputPerSecond)
        var summary = [
            "min": latencies.minimum.loadNanoseconds, "max": latencies.maximum.loadNanoseconds,
            "mean": latencies.mean.loadNanoseconds,
        ]
        for (label, percentile) in Self.percentiles {
            summary[label] = latencies.nanoseconds(atPercentile: percentile)
        }
        try container.encode(summary, forKey: .latencyNanoseconds)
        // One interval unpacked at a time: a long run's report never holds them all unpacked.
        try container.encode(
            packedIntervals.map { packed in
                let histogram = packed.latencies.histogram
                let exact = histogram.exactFigures
                return CodedInterval(
                    startNanoseconds: packed.start.loadNanoseconds, lengthNanoseconds: packed.length.loadNanoseconds,
                    hdrHistogram: histogram.hdrHistogramEncoded, minimumNanoseconds: exact.minimum,
                    maximumNanoseconds: exact.maximum, totalNanoseconds: exact.total)
            }, forKey: .intervals)
    }

    /// Reads a report written by ``encode(to:)``.
    ///
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when a figure is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            mode: try container.decode(LoadDriver.Mode.self, forKey: .mode),
            length: try container.decode(LoadDriver.Length.self, forKey: .length),
            warmUp: try container.decode(LoadDriver.Length.self, forKey: .warmUp),
            requests: try container.decode(Int.self, forKey: .requests),
            completed: try container.decode(Int.self, forKey: .completed),
            failures: try container.decode([String: Int].self, forKey: .failures),
            cancelled: try container.decode(Int.self, forKey: .cancelled),
            cancelledAtEnd: try container.decode(Int.self, forKey: .cancelledAtEnd),
            elapsed: .nanoseconds(try container.decode(UInt64.self, forKey: .elapsedNanoseconds)),
            latencies: try container.decode(LatencyHistogram.self, forKey: .histogram),
            executors: try container.decode([String: Int].self, forKey: .executors),
            // Reports written before intervals existed have none.
            packedIntervals: try (container.decodeIfPresent([CodedInterval].self, forKey: .intervals) ?? []).map {
                coded in
                let histogram: LatencyHistogram
                do {
                    histogram = try LatencyHistogram(
                        hdrHistogramEncoded: coded.hdrHistogram, minimum: coded.minimumNanoseconds,
                        maximum: coded.maximumNanoseconds, total: coded.totalNanoseconds)
                } catch {
                    throw DecodingError.dataCorruptedError(
                        forKey: .intervals, in: container, debugDescription: "an interval's hdrHistogram: \(error)")
                }
                return PackedInterval(
                    start: .nanoseconds(coded.startNanoseconds), length: .nanoseconds(coded.lengthNanoseconds),
                    latencies: PackedLatencyHistogram(histogram))
            })
    }
}

/// `{"closedLoop":{"inFlight":64}}`, `{"openLoop":{"perSecond":1000}}`, or the stages as a list:
/// `{"openLoopStages":[{"durationNanoseconds":30000000000,"shape":"ramp","target":200}]}`.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadDriver.Mode: Codable {
    private enum CodingKeys: String, CodingKey {
        case closedLoop, openLoop, openLoopStages, closedLoopStages
    }

    private enum ValueKeys: String, CodingKey {
        case inFlight, perSecond
    }

    /// Writes the mode as its type's discussion shows.
    ///
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .closedLoop(let inFlight):
            var values = container.nestedContainer(keyedBy: ValueKeys.self, forKey: .closedLoop)
            try values.encode(inFlight, forKey: .inFlight)
        case .openLoop(let perSecond):
            var values = container.nestedContainer(keyedBy: ValueKeys.self, forKey: .openLoop)
            try values.encode(perSecond, forKey: .perSecond)
        case .openLoopStages(let stages): try container.encode(stages, forKey: .openLoopStages)
        case .closedLoopStages(let stages): try container.encode(stages, forKey: .closedLoopStages)
        }
    }

    /// Reads a mode written by ``encode(to:)``.
    ///
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when no mode is there.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.closedLoop) {
            let values = try container.nestedContainer(keyedBy: ValueKeys.self, forKey: .closedLoop)
            self = .closedLoop(inFlight: try values.decode(Int.self, forKey: .inFlight))
        } else if container.contains(.openLoop) {
            let values = try container.nestedContainer(keyedBy: ValueKeys.self, forKey: .openLoop)
            self = .openLoop(perSecond: try values.decode(Double.self, forKey: .perSecond))
        } else if container.contains(.openLoopStages) {
            self = .openLoopStages(try container.decode([LoadStage].self, forKey: .openLoopStages))
        } else {
            self = .closedLoopStages(try container.decode([LoadStage].self, forKey: .closedLoopStages))
        }
    }
}

/// `{"requests": 1000}` or `{"nanoseconds": 5000000000}`.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadDriver.Length: Codable {
    private enum CodingKeys: String, CodingKey {
        case requests, nanoseconds
    }

    /// Writes `{"requests": n}` or `{"nanoseconds": n}`.
    ///
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .requests(let count): try container.encode(count, forKey: .requests)
        case .duration(let duration): try container.encode(duration.loadNanoseconds, forKey: .nanoseconds)
        }
    }

    /// Reads `{"requests": n}` or `{"nanoseconds": n}`.
    ///
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when neither key is there.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let count = try container.decodeIfPresent(Int.self, forKey: .requests) {
            self = .requests(count)
        } else {
            self = .duration(.nanoseconds(try container.decode(UInt64.self, forKey: .nanoseconds)))
        }
    }
}
