/// What one shard of a run counted: the measured answers, by outcome, with their latencies.
/// Shards are merged into the report at the end.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct LoadTally {
    /// The latencies of the answers whose interval has ended (``takeIntervalLatencies()``): every
    /// measured answer's, once the run has taken its last interval.
    var latencies = LatencyHistogram()
    /// The latencies of the answers since the run's current interval began. An answer is recorded
    /// here only, once, and moves into ``latencies`` when ``LoadRun`` takes its interval.
    var intervalLatencies = LatencyHistogram()
    var completed = 0
    var failures: [String: Int] = [:]
    var cancelled = 0
    var cancelledAtEnd = 0
    /// Answers by the executor they came back on; a list, not a dictionary, because it holds one
    /// or two names and comparing a short string is cheaper than hashing it.
    var executors: [(name: String, count: Int)] = []
    /// When the last measured answer came, in the clock's nanoseconds.
    var lastAnswer: UInt64 = 0
    /// Every answer, warm-up included: for the progress line.
    var answers = 0

    /// Counts one answer.
    ///
    /// - Parameters:
    ///   - error: the failure, or `nil` for a success.
    ///   - latency: from the request's start (intended start, in an open loop) to the answer.
    ///   - executor: the name of the executor it came back on.
    ///   - time: when it came.
    ///   - isMeasured: whether the request was made after the warm-up.
    ///   - isCancelledByDriver: whether the driver cancelled it at the deadline.
    mutating func count(
        error: (any Error)?, latency: UInt64, executor: String, at time: UInt64, isMeasured: Bool,
        isCancelledByDriver: Bool
    ) {
        answers += 1
        guard isMeasured else { return }
        if let error {
            if error is CancellationError {
                cancelled += 1
                if isCancelledByDriver {
                    cancelledAtEnd += 1
                    return  // an answer the driver forced: not the interactor's latency
                }
            } else {
                failures[String(describing: type(of: error)), default: 0] += 1
            }
        } else {
            completed += 1
        }
        intervalLatencies.record(nanoseconds: latency)
        lastAnswer = max(lastAnswer, time)
        add(1, on: executor)
    }

    /// The latencies since the interval began, which also move into ``latencies``: the interval
    /// starts again empty.
    mutating func takeIntervalLatencies() -> LatencyHistogram {
        let taken = intervalLatencies
        intervalLatencies = LatencyHistogram()
        latencies.merge(taken)
        return taken
    }

    /// Adds `other`'s counts to these.
    mutating func merge(_ other: LoadTally) {
        latencies.merge(other.latencies)
        intervalLatencies.merge(other.intervalLatencies)
        completed += other.completed
        failures.merge(other.failures, uniquingKeysWith: +)
        cancelled += other.cancelled
        cancelledAtEnd += other.cancelledAtEnd
        for (name, count) in other.executors { add(count, on: name) }
        lastAnswer = max(lastAnswer, other.lastAnswer)
        answers += other.answers
    }

    private mutating func add(_ count: Int, on executor: String) {
        if let index = executors.firstIndex(where: { $0.name == executor }) {
            executors[index].count += count
        } else {
            executors.append((executor, count))
        }
    }
}
