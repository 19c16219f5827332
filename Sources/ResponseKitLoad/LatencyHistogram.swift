/// Latencies counted in log-linear buckets, as HdrHistogram counts them: any percentile within a
/// stated relative error, in fixed memory, and mergeable.
///
/// Values up to 255 ns are counted exactly. Above that, each power of two is split into 128
/// buckets of equal width, so a bucket is never wider than 1/128 of the values it holds. A
/// percentile is reported as its bucket's highest value, as HdrHistogram reports it: never below
/// the true value, and above it by at most ``relativeError`` (1/128, 0.8 %). The buckets cover
/// every duration from zero to 2⁶⁴ − 1 ns (584 years) in at most 7,424 counters, whatever the
/// number of values: counters exist up to the highest bucket used, so recording allocates only
/// when a value is larger than any before. ``minimum`` and ``maximum`` are exact.
///
/// The layout is HdrHistogram's with two significant digits: ``hdrHistogramEncoded`` and
/// ``percentileDistribution(unit:ticksPerHalfDistance:)`` write its formats.
///
/// Histograms merge by adding their counters (``merge(_:)``), so each thread can keep its own and
/// the totals come together at the end, with no lock on the recording path.
///
/// <!-- example: fragment -->
/// ```swift
/// var histogram = LatencyHistogram()
/// for milliseconds in 1...100 { histogram.record(.milliseconds(milliseconds)) }
/// let p90 = histogram.value(atPercentile: 90)    // 90 ms, at most 0.8 % above
/// #expect(p90 >= .milliseconds(90) && p90 <= .milliseconds(90.8))
/// ```
///
/// A value type: not safe to mutate from two threads at once; give each thread its own and merge.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LatencyHistogram: Sendable, Hashable {
    /// How many bits of a value above the exact range its bucket keeps: 2⁷ = 128 buckets per
    /// power of two.
    static let precisionBits = 7
    static let subBucketCount = 1 << precisionBits
    /// Buckets for values of up to 64 bits: the exact range (2 × 128 values), then 128 for each
    /// of the 57 powers of two above it.
    static let bucketCount = (64 - precisionBits + 1) * subBucketCount

    /// The largest error of a reported percentile, relative to the true value: 1/128.
    ///
    /// A percentile is reported as the highest value of the bucket the true value falls in (as
    /// HdrHistogram reports it), and a bucket spans at most 1/128 of its lowest value, so the
    /// reported value is never below the true one and above it by at most 1/128 of it.
    public static let relativeError = 1.0 / Double(1 << precisionBits)

    /// The counters, up to the highest bucket that holds a value: empty before the first value,
    /// so an unused histogram costs nothing, and about 20 KB for latencies of microseconds to
    /// seconds rather than the 58 KB of every bucket (a run keeps one per interval).
    private var counts: [UInt64] = []
    /// How many values were recorded.
    public private(set) var count: UInt64 = 0
    private var minimumNanoseconds = UInt64.max
    private var maximumNanoseconds: UInt64 = 0
    /// The sum of the values, for the mean; saturates rather than wrap.
    private var totalNanoseconds: UInt64 = 0

    /// Makes an empty histogram.
    public init() {}

    /// Whether no value was recorded.
    public var isEmpty: Bool { count == 0 }

    /// The smallest value recorded, exactly; zero when empty.
    public var minimum: Duration { isEmpty ? .zero : .nanoseconds(minimumNanoseconds) }

    /// The largest value recorded, exactly; zero when empty.
    public var maximum: Duration { .nanoseconds(maximumNanoseconds) }

    /// The mean of the values recorded, from their exact sum; zero when empty.
    public var mean: Duration {
        isEmpty ? .zero : .nanoseconds(Double(totalNanoseconds) / Double(count))
    }

    // MARK: - Recording

    /// Counts one value; a negative one counts as zero.
    ///
    /// - Parameter value: a latency.
    /// - Complexity: O(1); allocates only the first time.
    public mutating func record(_ value: Duration) {
        record(nanoseconds: value.loadNanoseconds)
    }

    /// Counts one value given in nanoseconds: the recording path of the load driver, which reads
    /// its clock in nanoseconds.
    ///
    /// - Parameter nanoseconds: a latency.
    /// - Complexity: O(1); allocates only the first time.
    public mutating func record(nanoseconds: UInt64) {
        let index = Self.bucket(of: nanoseconds)
        if index >= counts.count { grow(toHold: index) }
        counts[index] &+= 1
        count &+= 1
        minimumNanoseconds = Swift.min(minimumNanoseconds, nanoseconds)
        maximumNanoseconds = Swift.max(maximumNanoseconds, nanoseconds)
        let (sum, overflow) = totalNanoseconds.addingReportingOverflow(nanoseconds)
        totalNanoseconds = overflow ? .max : sum
    }

    /// Adds the values of `other` to this histogram, as if each had been recorded here.
    ///
    /// - Parameter other: another histogram, from another thread or another run.
    /// - Complexity: O(1) when either is empty, else O(number of buckets).
    public mutating func merge(_ other: LatencyHistogram) {
        guard !other.isEmpty else { return }
        guard !isEmpty else {
            self = other
            return
        }
        if other.counts.count > counts.count { grow(toHold: other.counts.count - 1) }
        for index in other.counts.indices { counts[index] &+= other.counts[index] }
        count &+= other.count
        minimumNanoseconds = Swift.min(minimumNanoseconds, other.minimumNanoseconds)
        maximumNanoseconds = Swift.max(maximumNanoseconds, other.maximumNanoseconds)
        let (sum, overflow) = totalNanoseconds.addingReportingOverflow(other.totalNanoseconds)
        totalNanoseconds = overflow ? .max : sum
    }

    // MARK: - Reading

    /// The value below which `percentile` percent of the values lie (nearest rank): the highest
    /// value of its bucket, as HdrHistogram reports it (never below the true value, above it by at
    /// most ``relativeError``), kept between ``minimum`` and ``maximum``.
    ///
    /// `value(atPercentile: 50)` is the median, `99.9` the p99.9; 0 is ``minimum`` and 100 is
    /// ``maximum``, exactly.
    ///
    /// - Parameter percentile: from 0 to 100; values outside count as the nearer end.
    /// - Returns: the value; zero when the histogram is empty.
    /// - Complexity: O(number of buckets).
    public func value(atPercentile percentile: Double) -> Duration {
        .nanoseconds(nanoseconds(atPercentile: percentile))
    }

    /// ``value(atPercentile:)`` in nanoseconds.
    func nanoseconds(atPercentile percentile: Double) -> UInt64 {
        guard !isEmpty else { return 0 }
        let clamped = Swift.min(Swift.max(percentile.isNaN ? 0 : percentile, 0), 100)
        guard clamped > 0 else { return minimumNanoseconds }
        // Nearest rank: the smallest value with at least this many values at or below it. The
        // tolerance keeps p99.9 of 1,000 values at rank 999, where 99.9 / 100 × 1,000 computes as
        // 999.0000000000001.
        let rank = Swift.max(1, UInt64((clamped / 100 * Double(count) * (1 - 1e-12)).rounded(.up)))
        guard rank < count else { return maximumNanoseconds }
        var seen: UInt64 = 0
        for (index, bucketCount) in counts.enumerated() {
            seen += bucketCount
            if seen >= rank {
                // The bucket's highest value, as HdrHistogram reports it: never below the true
                // value, and never above the largest recorded.
                let highest = Self.highestEquivalentValue(ofBucket: index)
                return Swift.min(Swift.max(highest, minimumNanoseconds), maximumNanoseconds)
            }
        }
        return maximumNanoseconds
    }

    /// The buckets that hold values: each bucket's lowest value in nanoseconds and its count,
    /// lowest first. What ``LoadReport``'s JSON carries, so that runs can be merged later.
    var nonEmptyBuckets: [(lowestNanoseconds: UInt64, count: UInt64)] {
        counts.indices.compactMap { index in
            counts[index] == 0 ? nil : (Self.range(ofBucket: index).lowest, counts[index])
        }
    }

    /// Rebuilds a histogram from ``nonEmptyBuckets`` and the exact figures beside them.
    init(
        buckets: [(lowestNanoseconds: UInt64, count: UInt64)], minimum: UInt64, maximum: UInt64, total: UInt64
    ) {
        for (lowest, bucketCount) in buckets where bucketCount > 0 {
            let index = Self.bucket(of: lowest)
            if index >= counts.count { grow(toHold: index) }
            counts[index] &+= bucketCount
            count &+= bucketCount
        }
        guard count > 0 else { return }
        minimumNanoseconds = minimum
        maximumNanoseconds = maximum
        totalNanoseconds = total
    }

    /// Adds zero counters up to bucket `index`, so that the counters end at the highest bucket
    /// that holds a value (equal histograms have equal counters).
    private mutating func grow(toHold index: Int) {
        counts.append(contentsOf: repeatElement(0, count: index + 1 - counts.count))
    }

    /// The counter of every bucket up to the highest that holds a value, by index; empty before
    /// the first value.
    var countsByBucket: [UInt64] { counts }

    /// The exact figures ``init(buckets:minimum:maximum:total:)`` takes back.
    var exactFigures: (minimum: UInt64, maximum: UInt64, total: UInt64) {
        (isEmpty ? 0 : minimumNanoseconds, maximumNanoseconds, totalNanoseconds)
    }

    // MARK: - Buckets

    /// The bucket that counts `value`.
    ///
    /// Below 2 × 128 the value is its own bucket. Above, with `shift` the number of low bits a
    /// bucket drops, the value's top 8 bits (128 to 255) number the bucket within its power of
    /// two: index = shift × 128 + top bits. Consecutive powers of two therefore follow each other
    /// with no gap and no overlap.
    @inline(__always)
    static func bucket(of value: UInt64) -> Int {
        let shift = Swift.max(0, (64 - value.leadingZeroBitCount) - (precisionBits + 1))
        return shift * subBucketCount + Int(truncatingIfNeeded: value >> UInt64(shift))
    }

    /// The lowest value a bucket counts, and how many values it spans.
    static func range(ofBucket index: Int) -> (lowest: UInt64, width: UInt64) {
        guard index >= 2 * subBucketCount else { return (UInt64(index), 1) }
        let shift = index / subBucketCount - 1
        let top = UInt64(index % subBucketCount + subBucketCount)
        return (top << UInt64(shift), 1 << UInt64(shift))
    }

    /// The highest value counted in bucket `index`.
    static func highestEquivalentValue(ofBucket index: Int) -> UInt64 {
        let (lowest, width) = range(ofBucket: index)
        return lowest &+ (width - 1)
    }

    /// The highest value counted in the bucket of `value`.
    static func highestEquivalentValue(of value: UInt64) -> UInt64 {
        highestEquivalentValue(ofBucket: bucket(of: value))
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
    /// The duration in whole nanoseconds: zero when negative, `UInt64.max` when longer than that
    /// counts (584 years), so that "too long" stays long rather than wrap around to short.
    var loadNanoseconds: UInt64 {
        let (seconds, attoseconds) = Swift.max(self, .zero).components
        let (scaled, overflow) = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (nanoseconds, carry) = scaled.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || carry ? .max : nanoseconds
    }
}
