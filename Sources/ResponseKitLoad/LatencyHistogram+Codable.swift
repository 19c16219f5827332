/// The buckets that hold values, as `[lowest value, count]` pairs in nanoseconds, and the exact
/// minimum, maximum and sum: `{"buckets":[[1015808,412],[1019904,388]],"maximumNanoseconds":…}`.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LatencyHistogram: Codable {
    private enum CodingKeys: String, CodingKey {
        case buckets, minimumNanoseconds, maximumNanoseconds, totalNanoseconds
    }

    /// Writes the non-empty buckets and the exact figures.
    ///
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(nonEmptyBuckets.map { [$0.lowestNanoseconds, $0.count] }, forKey: .buckets)
        let exact = exactFigures
        try container.encode(exact.minimum, forKey: .minimumNanoseconds)
        try container.encode(exact.maximum, forKey: .maximumNanoseconds)
        try container.encode(exact.total, forKey: .totalNanoseconds)
    }

    /// Reads what ``encode(to:)`` wrote.
    ///
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when a figure is missing, or a bucket is not a pair.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let pairs = try container.decode([[UInt64]].self, forKey: .buckets)
        guard pairs.allSatisfy({ $0.count == 2 }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .buckets, in: container, debugDescription: "each bucket is [lowest value, count]")
        }
        self.init(
            buckets: pairs.map { ($0[0], $0[1]) },
            minimum: try container.decode(UInt64.self, forKey: .minimumNanoseconds),
            maximum: try container.decode(UInt64.self, forKey: .maximumNanoseconds),
            total: try container.decode(UInt64.self, forKey: .totalNanoseconds))
    }
}
