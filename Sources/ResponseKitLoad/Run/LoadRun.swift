import ResponseKit

/// One run of a ``LoadDriver``: the only code that locks. It asks the ``LoadPlan`` (one lock) what
/// comes next and counts answers in ``LoadShard``s (one lock each), then acts outside the locks:
/// makes requests, schedules timers, cancels, makes the report.
///
/// Not generic: the caller's specialised code (``LoadDriver/run(on:_:)-(_,(Int)->Response<Value>)``)
/// makes each request and hands its answer to ``answer(_:error:on:)``. Unspecialised, the run
/// spent 40 % of its time looking up generic metadata.
///
/// Lock order: no lock is held while another is taken; the interactor, the scheduler and
/// response callbacks are called with no lock held.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@usableFromInline
final class LoadRun: Sendable {
    /// Makes request `index` (the first argument), whose answer goes to the run (the third) with
    /// the token (the second).
    @usableFromInline
    typealias MakeRequest = @Sendable (Int, LoadToken, LoadRun) -> any PendingRequest

    /// Receives the total report and each scenario's (none without scenarios).
    typealias Finish = @Sendable (LoadReport, [LoadReport]) -> Void

    private let driver: LoadDriver
    private let makeRequest: MakeRequest
    private let finish: Finish
    /// The scenario of request *i* is `scenarioOrder[i % scenarioOrder.count]`: a weighted
    /// round-robin; `[0]` without scenarios.
    private let scenarioOrder: [Int]
    /// How many scenarios; 0 without.
    private let scenarioCount: Int
    private let plan: LockedBox<LoadPlan>
    private let shards: [LockedBox<LoadShard>]
    /// Closed-loop lanes, or zero in an open loop.
    private let laneCount: Int
    /// The progress line's previous snapshot, to tell the current rate.
    private let lastProgress = LockedBox.make((elapsed: UInt64(0), answers: 0))
    private let progressReporter: LoadProgress.Reporter?
    /// The report's intervals so far (``LoadReport/intervals``): the total's, then each
    /// scenario's.
    private let intervals: LockedBox<[LoadIntervals]>

    init(driver: LoadDriver, weights: [Int] = [], makeRequest: @escaping MakeRequest, finish: @escaping Finish) {
        self.driver = driver
        self.makeRequest = makeRequest
        self.finish = finish
        scenarioOrder = weights.isEmpty ? [0] : LoadScenario.order(weights: weights)
        scenarioCount = weights.count
        intervals = LockedBox.make(Array(repeating: LoadIntervals(), count: weights.count + 1))
        plan = LockedBox.make(LoadPlan(driver: driver))
        switch driver.mode {
        case .closedLoop(let inFlight): laneCount = inFlight
        case .closedLoopStages(let stages): laneCount = LoadSchedule(stages).maximumLanes
        case .openLoop, .openLoopStages: laneCount = 0
        }
        // Up to sixteen locks keep answers on different threads apart without a histogram per
        // lane (each takes 58 KB once used). Lane j is in shard j % count, at j / count.
        let shardCount = laneCount == 0 ? 16 : min(laneCount, 16)
        shards = (0..<shardCount).map { [laneCount] shard in
            LockedBox.make(
                LoadShard(lanes: (laneCount - shard + shardCount - 1) / shardCount, scenarios: weights.count))
        }
        progressReporter = driver.progress.makeReporter()
    }

    // MARK: - Start and stop

    /// Starts the run from a job on the clock's scheduler, so that `run` returns at once.
    func start() {
        let job = driver.clock.scheduler.schedule(after: .zero) { [self] in
            let now = driver.clock.nanoseconds()
            plan.withLock { $0.start(at: now, lanes: laneCount) }
            scheduleProgress(number: 1)
            scheduleIntervalEnd(number: 1)
            if case .closedLoopStages = driver.mode { changeLanes() }
            if laneCount > 0 {
                for lane in 0..<laneCount { drive(lane: lane, now: lane == 0 ? now : driver.clock.nanoseconds()) }
            } else {
                makeDueRequests()
            }
        }
        // A run cancelled before it started: the job is dropped with the rest.
        if !plan.withLock({ $0.keep(job, as: .start) }) { job.cancel() }
    }

    /// Stops at once: the report was cancelled.
    func stop() {
        for job in plan.withLock({ $0.stop() }) { job.cancel() }
        cancelPending()
        progressReporter?.end()
    }

    // MARK: - Answers

    /// Counts an answer and goes on: the next request of the lane, in a closed loop (unless the
    /// thread that made this one is still in the call, and goes on itself); the end of the run, if
    /// this was its last answer.
    ///
    /// - Parameters:
    ///   - token: what the run gave with the request.
    ///   - error: the answer's failure; `nil` for a success.
    ///   - executor: the executor the answer came back on.
    @usableFromInline
    func answer(_ token: LoadToken, error: (any Error)?, on executor: ResponseExecutor) {
        let end = driver.clock.nanoseconds()
        let shard = shards[token.number % shards.count]
        let executorName = executor.description
        if laneCount > 0 {
            let makesNext = shard.withLock { shard in
                shard.count(token, error: error, latency: end &- token.start, executor: executorName, at: end)
                return shard.answerCame(lane: token.number / shards.count, at: end)
            }
            if makesNext { drive(lane: token.number, now: end) }
        } else {
            shard.withLock { shard in
                shard.inFlight[token.number] = nil
                shard.count(token, error: error, latency: end &- token.start, executor: executorName, at: end)
            }
            act(on: plan.withLock { $0.answered() })
        }
    }

    // MARK: - Closed loop

    /// Makes lane `lane`'s requests, one after the other, for as long as each is answered before
    /// the call returns; then leaves the next to the pending request's callback.
    private func drive(lane: Int, now: UInt64) {
        let shard = shards[lane % shards.count]
        let slot = lane / shards.count
        var now = now
        while true {
            switch plan.withLock({ $0.claim(lane: lane, at: now) }) {
            case .stop(let ending):
                act(on: ending)
                return
            case .park:
                return
            case .request(let index, let isMeasured):
                let token = LoadToken(
                    number: lane, start: now, isMeasured: isMeasured,
                    scenario: scenarioOrder[index % scenarioOrder.count])
                let request = makeRequest(index, token, self)
                // The answer's time, when it came during the call, starts the next request.
                guard let answered = shard.withLock({ $0.requestMade(request, lane: slot) }) else { return }
                now = answered
            }
        }
    }

    /// Makes the stages' lane changes due by now: drives the lanes woken, then sets a timer
    /// for the next change.
    private func changeLanes() {
        let now = driver.clock.nanoseconds()
        let (wake, nextAt, ending) = plan.withLock { $0.changeLanes(at: now) }
        for lane in wake { drive(lane: lane, now: driver.clock.nanoseconds()) }
        if let nextAt {
            let job = driver.clock.schedule(at: nextAt) { [self] in changeLanes() }
            if !plan.withLock({ $0.keep(job, as: .lanes) }) { job.cancel() }
        }
        act(on: ending)
    }

    // MARK: - Open loop

    /// Makes the open-loop requests due by now, then sets a timer for the next.
    private func makeDueRequests() {
        let now = driver.clock.nanoseconds()
        let (due, nextAt, arrivals, ending) = plan.withLock { $0.takeDue(at: now) }
        for index in due {
            let shard = shards[index % shards.count]
            shard.withLock { $0.inFlight[index] = .some(nil) }
            let token = LoadToken(
                number: index, start: arrivals.intendedStart(of: index), isMeasured: index >= arrivals.warmUp,
                scenario: scenarioOrder[index % scenarioOrder.count])
            let request = makeRequest(index, token, self)
            shard.withLock { $0.requestMade(request, number: index) }
        }
        if let nextAt {
            let job = driver.clock.schedule(at: nextAt) { [self] in makeDueRequests() }
            if !plan.withLock({ $0.keep(job, as: .arrivals) }) { job.cancel() }
        }
        act(on: ending)
    }

    // MARK: - Ending

    private func act(on ending: LoadPlan.Ending) {
        switch ending {
        case .none:
            break
        case .startDraining:
            let deadline = driver.clock.nanoseconds() &+ driver.drainTimeout.loadNanoseconds
            let job = driver.clock.schedule(at: deadline) { [self] in cancelPending() }
            if !plan.withLock({ $0.keepDeadline(job) }) { job.cancel() }
        case .finish(let jobs):
            for job in jobs { job.cancel() }
            progressReporter?.end()
            let (total, scenarios) = makeReports()
            finish(total, scenarios)
        }
    }

    /// Cancels every request still pending; their answers count as cancelled by the driver.
    private func cancelPending() {
        let pending = shards.flatMap { shard in shard.withLock { $0.takePendingAtDeadline() } }
        for request in pending { request.cancel() }
    }

    /// The total report, and each scenario's.
    private func makeReports() -> (LoadReport, [LoadReport]) {
        // The last interval's answers first: taking them moves them into the tallies' latencies.
        let last = takeIntervalLatencies()
        var tally = LoadTally()
        var scenarioTallies = Array(repeating: LoadTally(), count: scenarioCount)
        for shard in shards {
            let (shardTally, shardScenarios) = shard.withLock { ($0.tally, $0.scenarioTallies) }
            tally.merge(shardTally)
            for (index, scenario) in shardScenarios.enumerated() { scenarioTallies[index].merge(scenario) }
        }
        let (startTime, measurementStart, requests, next) = plan.withLock {
            ($0.startTime, $0.measurementStart, $0.measuredRequests, $0.next)
        }
        // The last interval ends now, with the answers no interval's end has taken yet.
        let end = max(driver.clock.nanoseconds(), tally.lastAnswer) &- startTime
        let intervals = intervals.withLock { intervals in
            for index in intervals.indices {
                intervals[index].close(at: end, with: last[index], measuredFrom: (measurementStart ?? end) &- startTime)
                intervals[index].finish()
            }
            return intervals.map(\.packed)
        }
        func report(_ tally: LoadTally, requests: Int, intervals: [PackedInterval]) -> LoadReport {
            let elapsed = measurementStart.map { tally.lastAnswer > $0 ? tally.lastAnswer - $0 : 0 } ?? 0
            return LoadReport(
                driver: driver, requests: requests, tally: tally, elapsedNanoseconds: elapsed, intervals: intervals)
        }
        // The measured requests are numbers next − requests to next − 1.
        let scenarioRequests = LoadScenario.counts(
            order: scenarioOrder, scenarios: scenarioCount, in: (next - requests)..<next)
        return (
            report(tally, requests: requests, intervals: intervals[0]),
            scenarioTallies.indices.map {
                report(scenarioTallies[$0], requests: scenarioRequests[$0], intervals: intervals[$0 + 1])
            }
        )
    }

    // MARK: - Intervals

    /// Sets the timer that ends the `number`th interval: its answers' latencies are taken from
    /// every shard, so that each interval's histogram holds the answers that came in it.
    private func scheduleIntervalEnd(number: Int) {
        let startTime = plan.withLock { $0.startTime }
        let length = driver.interval.loadNanoseconds
        let job = driver.clock.schedule(at: startTime &+ length &* UInt64(number)) { [self] in
            let latencies = takeIntervalLatencies()
            let measuredFrom = plan.withLock { $0.measurementStart }.map { $0 &- startTime }
            intervals.withLock { intervals in
                for index in intervals.indices {
                    intervals[index].close(
                        at: length &* UInt64(number), with: latencies[index], measuredFrom: measuredFrom ?? .max)
                }
            }
            scheduleIntervalEnd(number: number + 1)
        }
        if !plan.withLock({ $0.keep(job, as: .interval) }) { job.cancel() }
    }

    /// The latencies of the answers since the last interval ended, taken out of every shard (and
    /// moved into its tallies' latencies, which the report reads): each answer is taken once, by
    /// the interval that ends first after it came. The total's first, then each scenario's.
    private func takeIntervalLatencies() -> [LatencyHistogram] {
        var latencies = Array(repeating: LatencyHistogram(), count: scenarioCount + 1)
        for shard in shards {
            let taken = shard.withLock { shard in
                [shard.tally.takeIntervalLatencies()]
                    + shard.scenarioTallies.indices.map { shard.scenarioTallies[$0].takeIntervalLatencies() }
            }
            for index in latencies.indices { latencies[index].merge(taken[index]) }
        }
        return latencies
    }

    // MARK: - Progress

    /// Sets the timer for the `number`th progress report, one interval after the last.
    private func scheduleProgress(number: Int) {
        guard let progressReporter else { return }
        let startTime = plan.withLock { $0.startTime }
        let due = startTime &+ progressReporter.interval.loadNanoseconds &* UInt64(number)
        let job = driver.clock.schedule(at: due) { [self] in
            let now = driver.clock.nanoseconds()
            let requests = plan.withLock { $0.next }
            let answers = shards.reduce(0) { sum, shard in sum + shard.withLock { $0.tally.answers } }
            let elapsed = now &- startTime
            let previous = lastProgress.withLock { last in
                defer { last = (elapsed, answers) }
                return last
            }
            let interval = Double(elapsed &- previous.elapsed) / 1e9
            progressReporter.report(
                LoadProgress.Snapshot(
                    elapsed: .nanoseconds(elapsed), requests: requests, answers: answers,
                    perSecond: interval > 0 ? Double(answers - previous.answers) / interval : 0))
            scheduleProgress(number: number + 1)
        }
        if !plan.withLock({ $0.keep(job, as: .progress) }) { job.cancel() }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadRun {
    /// Makes each request with `request` and hands its answer to the run: the only generic lines
    /// of a run (``LoadDriver/run(on:_:)-(_,(Int)->Response<Value>)`` and ``LoadScenario`` both
    /// use it). Inlined so that they are specialised for `Value` in the caller's module:
    /// unspecialised, the driver spent 40 % of its time looking up generic metadata.
    @inlinable
    static func makeRequest<Value>(with request: @escaping @Sendable (Int) -> Response<Value>) -> MakeRequest {
        { index, token, run in
            let response = request(index)
            let answersOn = response.executor
            response.onResult { result in
                switch result {
                case .success: run.answer(token, error: nil, on: answersOn)
                case .failure(let error): run.answer(token, error: error, on: answersOn)
                }
            }
            return response
        }
    }
}
