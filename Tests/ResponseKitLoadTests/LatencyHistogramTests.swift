import Foundation
import ResponseKitLoad
import SeededRandom
import Testing

/// The histogram's promises: every percentile within the stated relative error of the exact one,
/// exact minimum and maximum, fixed memory, and merging that equals recording in one place.
struct LatencyHistogramTests {
    /// Latencies spread over eleven orders of magnitude (log-uniform from 1 ns to 100 s): every
    /// bucket width the histogram uses is hit.
    static func spreadLatencies(count: Int, seed: UInt64) -> [Duration] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            .nanoseconds(Int64(pow(10, Double.random(in: 0..<11, using: &generator))))
        }
    }

    // MARK: - Error bound

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyPercentile_isWithinTheStatedRelativeErrorOfTheExactOne(seed: UInt64) {
        let values = Self.spreadLatencies(count: 20_000, seed: seed)
        var histogram = LatencyHistogram()
        for value in values { histogram.record(value) }

        for percentile in [0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99] {
            let exact = exactPercentile(percentile, of: values)
            let reported = histogram.value(atPercentile: percentile)
            #expect(isWithinStatedError(reported, of: exact), "p\(percentile): \(reported), exactly \(exact)")
        }
    }

    @Test func theStatedError_isOneBucketWidth_andNotLooser() {
        #expect(LatencyHistogram.relativeError == 1.0 / 128)
    }

    @Test func aPercentile_isItsBucketsHighestValue_asHdrHistogramReportsIt() {
        // 1,000,000 ns falls in a bucket 4,096 ns wide that starts at 999,424: HdrHistogram's
        // getValueAtPercentile reports 1,003,519 for it (its highest equivalent value).
        var histogram = LatencyHistogram()
        histogram.record(nanoseconds: 1_000_000)
        histogram.record(nanoseconds: 1_000_000)
        histogram.record(nanoseconds: 2_000_000)
        #expect(histogram.value(atPercentile: 50) == .nanoseconds(1_003_519))
    }

    @Test func eachValue_alone_isReportedWithinTheStatedError_atEveryScale() {
        // One value per histogram: its median is its bucket's middle, the worst case of the bound.
        var value: UInt64 = 1
        while value < UInt64.max / 3 {
            for candidate in [value, value + value / 3, value * 2 - 1] {
                var histogram = LatencyHistogram()
                histogram.record(nanoseconds: candidate)
                // Around it, so neither the minimum nor the maximum clamps the median.
                histogram.record(nanoseconds: 0)
                histogram.record(nanoseconds: .max)
                let reported = histogram.value(atPercentile: 50)
                #expect(isWithinStatedError(reported, of: .nanoseconds(candidate)), "\(candidate) ns: \(reported)")
            }
            value *= 2
        }
    }

    @Test func valuesBelow256Nanoseconds_areExact() {
        var histogram = LatencyHistogram()
        for nanoseconds in 0..<256 as Range<UInt64> { histogram.record(nanoseconds: nanoseconds) }

        for rank in [1, 50, 128, 200, 255] {
            let percentile = Double(rank) / 256 * 100
            #expect(histogram.value(atPercentile: percentile) == .nanoseconds(rank - 1))
        }
    }

    @Test func minimumAndMaximum_areExact_andArePercentiles0And100() {
        var histogram = LatencyHistogram()
        for value in [1_234_567, 987_654_321, 55_555] as [Int64] { histogram.record(.nanoseconds(value)) }

        #expect(histogram.minimum == .nanoseconds(55_555))
        #expect(histogram.maximum == .nanoseconds(987_654_321))
        #expect(histogram.value(atPercentile: 0) == histogram.minimum)
        #expect(histogram.value(atPercentile: 100) == histogram.maximum)
        #expect(histogram.count == 3)
        #expect(histogram.mean == .nanoseconds((1_234_567 + 987_654_321 + 55_555) / 3.0))
    }

    @Test func anEmptyHistogram_readsZero() {
        let histogram = LatencyHistogram()

        #expect(histogram.isEmpty)
        #expect(histogram.value(atPercentile: 50) == .zero)
        #expect(histogram.minimum == .zero && histogram.maximum == .zero && histogram.mean == .zero)
    }

    @Test func negativeAndHugeValues_areKept_atTheEnds() {
        var histogram = LatencyHistogram()
        histogram.record(.seconds(-1))
        histogram.record(.seconds(Int64.max))

        #expect(histogram.minimum == .zero)
        #expect(histogram.maximum == .nanoseconds(UInt64.max))
    }

    // MARK: - Merge

    @Test func merging_equalsRecordingEverythingInOne() {
        let values = Self.spreadLatencies(count: 9_000, seed: 7)
        var whole = LatencyHistogram()
        var parts = [LatencyHistogram](repeating: LatencyHistogram(), count: 3)
        for (index, value) in values.enumerated() {
            whole.record(value)
            parts[index % 3].record(value)
        }

        var merged = LatencyHistogram()
        for part in parts { merged.merge(part) }

        #expect(merged == whole)
        #expect(merged.count == 9_000)
        #expect(merged.value(atPercentile: 99) == whole.value(atPercentile: 99))
    }

    @Test func mergingAnEmptyHistogram_changesNothing_eitherWay() {
        var histogram = LatencyHistogram()
        histogram.record(.milliseconds(3))
        let before = histogram

        histogram.merge(LatencyHistogram())
        var empty = LatencyHistogram()
        empty.merge(before)

        #expect(histogram == before)
        #expect(empty == before)
    }

    // MARK: - Codable

    @Test func aHistogram_survivesJSON() throws {
        var histogram = LatencyHistogram()
        for value in Self.spreadLatencies(count: 1_000, seed: 11) { histogram.record(value) }

        let data = try JSONEncoder().encode(histogram)
        let decoded = try JSONDecoder().decode(LatencyHistogram.self, from: data)

        #expect(decoded == histogram)
    }
}
