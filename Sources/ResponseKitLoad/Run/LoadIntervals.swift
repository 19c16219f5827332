/// The intervals of a run so far: latency and throughput over time, in bounded memory.
///
/// Each interval's histogram holds only the counters up to its largest latency (about 20 KB for
/// latencies of microseconds to seconds). So that a long run does not grow without end, at most
/// ``limit`` intervals are kept: when a run passes that many, neighbours are merged in pairs,
/// each merged interval lasting twice as long (a ten-minute run at the default second keeps all
/// 600; a day keeps about 675 of two minutes and eight seconds).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct LoadIntervals {
    /// The most intervals kept.
    static let limit = 1_000

    /// The intervals that ended, oldest first.
    private(set) var closed: [HistogramLog.Interval] = []
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
            if !latencies.isEmpty, !closed.isEmpty { closed[closed.count - 1].histogram.merge(latencies) }
            return
        }
        defer { nextStart = end }
        guard end > measuredFrom || !latencies.isEmpty else { return }
        closed.append(
            HistogramLog.Interval(
                start: .nanoseconds(nextStart), length: .nanoseconds(end - nextStart), histogram: latencies))
        if closed.count > Self.limit { halve() }
    }

    /// Merges neighbouring intervals in pairs.
    private mutating func halve() {
        var merged: [HistogramLog.Interval] = []
        merged.reserveCapacity(closed.count / 2 + 1)
        var index = 0
        while index < closed.count {
            var interval = closed[index]
            if index + 1 < closed.count {
                let next = closed[index + 1]
                interval.length = next.start + next.length - interval.start
                interval.histogram.merge(next.histogram)
            }
            merged.append(interval)
            index += 2
        }
        closed = merged
    }
}
