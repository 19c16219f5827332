/// A share of a run's lanes and answers, behind one lock of its own, so that answers coming back
/// on several threads rarely wait for each other.
///
/// A closed-loop lane lives in one shard. Its requests are made in a loop (``LoadRun``), and the
/// lane's ``Step`` settles, under this lock, who makes its next request: the thread that made the
/// last one, when the answer came back before the call returned (an interactor that answers at
/// once, on `.immediate`), or else the callback that brought the answer. So a lane never
/// recurses, however many requests are answered inline, and never runs on two threads at once.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct LoadShard {
    /// Where a closed-loop lane stands.
    enum Step {
        /// A thread is making a request for it, or about to.
        case issuing
        /// The answer came at this time while the request was being made: the thread making it
        /// goes on with the next.
        case answeredWhileIssuing(at: UInt64)
        /// Its request is pending; the answer's callback will make the next.
        case waiting(any PendingRequest)
    }

    var tally = LoadTally()
    /// Each scenario's share of ``tally``, by its place in the list; empty without scenarios.
    var scenarioTallies: [LoadTally]
    /// Closed loop: the lanes of this shard.
    var lanes: [Step]
    /// Open loop: the requests in flight, by number, to cancel at the deadline; `nil` while the
    /// request is being made.
    var inFlight: [Int: (any PendingRequest)?] = [:]
    /// Set at the deadline: the cancellations from here on are the driver's.
    var isCancellingAtEnd = false

    init(lanes: Int, scenarios: Int) {
        self.lanes = Array(repeating: .issuing, count: lanes)
        scenarioTallies = Array(repeating: LoadTally(), count: scenarios)
    }

    /// Counts an answer in the total and in its scenario's tally.
    mutating func count(
        _ token: LoadToken, error: (any Error)?, latency: UInt64, executor: String, at time: UInt64
    ) {
        tally.count(
            error: error, latency: latency, executor: executor, at: time, isMeasured: token.isMeasured,
            isCancelledByDriver: isCancellingAtEnd)
        guard !scenarioTallies.isEmpty else { return }
        scenarioTallies[token.scenario].count(
            error: error, latency: latency, executor: executor, at: time, isMeasured: token.isMeasured,
            isCancelledByDriver: isCancellingAtEnd)
    }

    /// Lane `slot`'s request is made and its callback registered. Returns the time of its answer
    /// when it came already: the caller goes on with the next request. Otherwise the lane waits.
    mutating func requestMade(_ request: any PendingRequest, lane slot: Int) -> UInt64? {
        if case .answeredWhileIssuing(let time) = lanes[slot] {
            lanes[slot] = .issuing
            return time
        }
        lanes[slot] = .waiting(request)
        return nil
    }

    /// Lane `slot`'s answer came at `time`: whether the caller (the answer's callback) makes the
    /// next request, or leaves it to the thread still making this one.
    mutating func answerCame(lane slot: Int, at time: UInt64) -> Bool {
        guard case .waiting = lanes[slot] else {
            lanes[slot] = .answeredWhileIssuing(at: time)
            return false
        }
        lanes[slot] = .issuing
        return true
    }

    /// An open-loop request is made: keep it to cancel, unless it was answered already.
    mutating func requestMade(_ request: any PendingRequest, number: Int) {
        if inFlight.keys.contains(number) { inFlight[number] = request }
    }

    /// The deadline has passed: every request still pending, to cancel outside the lock.
    mutating func takePendingAtDeadline() -> [any PendingRequest] {
        isCancellingAtEnd = true
        let waiting = lanes.compactMap { step -> (any PendingRequest)? in
            if case .waiting(let request) = step { request } else { nil }
        }
        return waiting + inFlight.values.compactMap { $0 }
    }
}
