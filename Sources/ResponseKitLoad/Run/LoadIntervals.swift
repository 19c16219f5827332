/// The intervals of a run so far: latency and throughput over time, in bounded memory.
///
/// Each interval's histogram is kept packed as HdrHistogram packs its counters (about a kilobyte).
/// So that a long run does not grow without end, at most
/// ``limit`` intervals are kept: when a run passes that many, neighbours are merged in pairs,
/// each merged interval lasting twice as long (a ten-minute run at the default second keeps all
/// 600; a day keeps about 675 of two minutes and eight seconds).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct LoadIntervals {
    /// The most intervals kept.
    static let limit = 1_000

    /// The intervals that ended, oldest first, each histogram packed: about a kilobyte each, so
    /// that a run's memory stays flat however long it lasts (a 10-minute run: Benchmarks/README.md).
    private(set) var packed: [PackedInterval] = []

    /// Where the next interval starts, in nanoseconds from the run's start.
    private var nextStart: UInt64 = 0
    /// The report was made: an interval timer that was already running when the run finished
    /// changes nothing more (the answers it took came after the report's last interval ended).
    private var isFinished = false

    /// Stops taking intervals: the report has them.
    mutating func finish() {
        isFinished = true
    }

    /// Ends the interval under way at `end` (from the run's start), with the latencies of the
    /// answers that came in it. An interval that ended before the measured part began (at
    /// `measuredFrom`) holds no measured answer and is left out.
    mutating func close(at end: UInt64, with latencies: LatencyHistogram, measuredFrom: UInt64) {
        guard !isFinished else { return }
        guard end > nextStart else {
            // The run ended on a boundary: the answers (if any) join the last interval.
            if !latencies.isEmpty, let last = packed.last {
                var merged = last.latencies.histogram
                merged.merge(latencies)
                packed[packed.count - 1].latencies = PackedLatencyHistogram(merged)
            }
            return
        }
        defer { nextStart = end }
        guard end > measuredFrom || !latencies.isEmpty else { return }
        packed.append(
            PackedInterval(
                start: .nanoseconds(nextStart), length: .nanoseconds(end - nextStart),
                latencies: PackedLatencyHistogram(latencies)))
        if packed.count > Self.limit { halve() }
    }

    /// Merges neighbouring intervals in pairs.
    private mutating func halve() {
        var merged: [PackedInterval] = []
        merged.reserveCapacity(packed.count / 2 + 1)
        var index = 0
        while index < packed.count {
            var interval = packed[index]
            if index + 1 < packed.count {
                let next = packed[index + 1]
                interval.length = next.start + next.length - interval.start
                var latencies = interval.latencies.histogram
                latencies.merge(next.latencies.histogram)
                interval.latencies = PackedLatencyHistogram(latencies)
            }
            merged.append(interval)
            index += 2
        }
        packed = merged
    }
}
