import Foundation

/// What a ``LoadDriver`` run measured: how many requests, how they ended, how fast, how long.
///
/// Every figure counts the measured part of the run only, after the warm-up. ``table`` is for
/// people, ``json`` for machines (the report is `Codable`, and decodes back from it, histogram
/// included, so runs kept as files can be merged and compared later).
///
/// - ``completed``, ``failures`` and ``cancelled`` split the answers by outcome.
/// - ``latencies`` holds the latency of every answer but those the driver cancelled itself at
///   the end (``cancelledAtEnd``): from the moment a request was made in a closed loop, from its
///   intended start in an open loop.
/// - ``throughput`` is answers per second over ``elapsed``, which runs from the start of the first
///   measured request to the last answer.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadReport: Sendable, Hashable {
    /// How the requests arrived.
    public let mode: LoadDriver.Mode
    /// How long the measured part was meant to last.
    public let length: LoadDriver.Length
    /// How long the warm-up was meant to last.
    public let warmUp: LoadDriver.Length
    /// Requests made after the warm-up.
    public let requests: Int
    /// Requests answered with a value.
    public let completed: Int
    /// Requests answered with an error, by the error's type name (`SignInError`), cancellations
    /// aside.
    public let failures: [String: Int]
    /// Requests answered with `CancellationError`, by the interactor or by the driver at the end.
    public let cancelled: Int
    /// Of the ``cancelled``, those the driver cancelled because no answer had come by the drain
    /// timeout; not counted in the latencies or the throughput.
    public let cancelledAtEnd: Int
    /// From the start of the first measured request to the last answer.
    public let elapsed: Duration
    /// The latencies of the answers.
    public let latencies: LatencyHistogram
    /// Answers by the executor they came back on (`main`, `immediate`, `queue(label)`), as
    /// `ResponseExecutor` names it.
    public let executors: [String: Int]
    /// Latency and throughput over time: the answers' latencies by the interval they came in
    /// (``LoadDriver/interval`` long, from the run's start; the last ends with the run), the
    /// measured part only. Their histograms together hold the same answers as ``latencies``.
    /// ``histogramLog(startTime:)`` writes them in HdrHistogram's interval log format.
    ///
    /// At most 1,000 are kept: past that, neighbours are merged in pairs, each then twice as
    /// long, so that a long run's report stays small. The report keeps them packed (about a
    /// kilobyte each); each read unpacks them.
    public var intervals: [HistogramLog.Interval] { packedIntervals.map(\.interval) }
    /// The intervals, each histogram packed.
    let packedIntervals: [PackedInterval]

    /// Makes a report; the driver makes them, tests and tools that merge reports may too.
    ///
    /// - Parameters:
    ///   - mode: how the requests arrived.
    ///   - length: how long the measured part was meant to last.
    ///   - warmUp: how long the warm-up was meant to last.
    ///   - requests: requests made after the warm-up.
    ///   - completed: requests answered with a value.
    ///   - failures: requests answered with an error, by type name.
    ///   - cancelled: requests answered with `CancellationError`.
    ///   - cancelledAtEnd: of those, the ones the driver cancelled at the end.
    ///   - elapsed: from the first measured request to the last answer.
    ///   - latencies: the latencies of the answers.
    ///   - executors: answers by the executor they came back on.
    ///   - intervals: the latencies by the interval they came in; none by default.
    public init(
        mode: LoadDriver.Mode, length: LoadDriver.Length, warmUp: LoadDriver.Length, requests: Int, completed: Int,
        failures: [String: Int], cancelled: Int, cancelledAtEnd: Int, elapsed: Duration, latencies: LatencyHistogram,
        executors: [String: Int], intervals: [HistogramLog.Interval] = []
    ) {
        self.init(
            mode: mode, length: length, warmUp: warmUp, requests: requests, completed: completed, failures: failures,
            cancelled: cancelled, cancelledAtEnd: cancelledAtEnd, elapsed: elapsed, latencies: latencies,
            executors: executors, packedIntervals: intervals.map(PackedInterval.init))
    }

    /// The one initializer that sets every figure: the intervals come packed.
    init(
        mode: LoadDriver.Mode, length: LoadDriver.Length, warmUp: LoadDriver.Length, requests: Int, completed: Int,
        failures: [String: Int], cancelled: Int, cancelledAtEnd: Int, elapsed: Duration, latencies: LatencyHistogram,
        executors: [String: Int], packedIntervals: [PackedInterval]
    ) {
        self.mode = mode
        self.length = length
        self.warmUp = warmUp
        self.requests = requests
        self.completed = completed
        self.failures = failures
        self.cancelled = cancelled
        self.cancelledAtEnd = cancelledAtEnd
        self.elapsed = elapsed
        self.latencies = latencies
        self.executors = executors
        self.packedIntervals = packedIntervals
    }

    init(
        driver: LoadDriver, requests: Int, tally: LoadTally, elapsedNanoseconds: UInt64,
        intervals: [PackedInterval]
    ) {
        self.init(
            mode: driver.mode, length: driver.length, warmUp: driver.warmUp, requests: requests,
            completed: tally.completed, failures: tally.failures, cancelled: tally.cancelled,
            cancelledAtEnd: tally.cancelledAtEnd, elapsed: .nanoseconds(elapsedNanoseconds),
            latencies: tally.latencies,
            executors: Dictionary(tally.executors.map { ($0.name, $0.count) }, uniquingKeysWith: +),
            packedIntervals: intervals)
    }

    /// The report's ``intervals`` as an HdrHistogram interval log, to write to a `.hlog` file
    /// that HdrHistogram's tools (`HistogramLogProcessor`, its plotters) read.
    ///
    /// - Parameter startTime: when the run started, for the log's header; `nil` leaves it out.
    /// - Returns: the log.
    public func histogramLog(startTime: Date? = nil) -> HistogramLog {
        HistogramLog(startTime: startTime, intervals: intervals)
    }

    /// Requests answered with an error, cancellations aside.
    public var failed: Int { failures.values.reduce(0, +) }

    /// The answers counted in the latencies and the throughput: all but ``cancelledAtEnd``.
    public var answers: Int { completed + failed + cancelled - cancelledAtEnd }

    /// Answers per second over ``elapsed``; zero when nothing was answered.
    public var throughput: Double {
        let seconds = Double(elapsed.loadNanoseconds) / 1e9
        return seconds > 0 ? Double(answers) / seconds : 0
    }
}
