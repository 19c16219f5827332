import ResponseKit

/// Finds the highest open-loop rate at which a latency percentile stays under a limit: the
/// capacity of an interactor, as the rate where p99 crosses 50 ms.
///
/// The search runs one short open loop (a *step*) after another: it doubles the rate from `from`
/// until a step fails (or `to` passes), then bisects between the highest rate that passed and the
/// lowest that failed, on a log scale, until they are within `precision` of each other. A step
/// passes when its percentile is at most `limit` and no request was left unanswered at the end.
///
/// Noise: a step that passes with its percentile within 10 % of the limit is run again, and the
/// rate passes only if the rerun passes too, so that one lucky step near the limit does not
/// make the answer. Every step's report is in ``Outcome/steps``.
///
/// <!-- example: fragment -->
/// ```swift
/// nonisolated struct SignIn: Sendable {   // called from any thread
///     func execute(_ name: String) -> Response<String> { Response(on: .global()) { "token for \(name)" } }
/// }
/// let signIn = SignIn()
///
/// let search = LoadRateSearch(limit: .milliseconds(50), from: 100, to: 10_000, stepDuration: .seconds(5))
/// let outcome = try search.run { signIn.execute("ada") }.value
/// print(outcome.highestPassingRate.map { "\($0) a second" } ?? "not even 100 a second")
/// ```
///
/// Threads: as ``LoadDriver``'s, one step after the other; the request function is called from
/// the clock's timer jobs.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadRateSearch: Sendable {
    /// One step of the search: an open loop at one rate.
    public struct Step: Sendable, Hashable {
        /// Requests a second.
        public let rate: Double
        /// The latency at the search's percentile.
        public let latency: Duration
        /// Whether the latency was at most the limit, with every request answered.
        public let passed: Bool
        /// Whether the step ran again a rate that passed near the limit.
        public let isRerun: Bool
        /// The step's report.
        public let report: LoadReport
    }

    /// What the search found.
    public struct Outcome: Sendable, Hashable {
        /// The highest rate that passed (twice, when near the limit), or `nil` when even `from`
        /// failed.
        public let highestPassingRate: Double?
        /// Every step, in the order they ran.
        public let steps: [Step]
    }

    /// The latency the percentile must not exceed.
    public let limit: Duration
    /// The percentile, such as 99.
    public let percentile: Double
    /// The first rate tried, in requests a second.
    public let from: Double
    /// The highest rate tried.
    public let to: Double
    /// How long each step's open loop lasts.
    public let stepDuration: Duration
    /// How close, relatively, the highest passing and lowest failing rates get before the search
    /// stops.
    public let precision: Double
    /// Where the time comes from.
    public let clock: LoadClock
    /// What each step says while it runs.
    public let progress: LoadProgress

    /// Describes a search; nothing runs before ``run(on:_:)-(_,(Int)->Response<Value>)``.
    ///
    /// - Parameters:
    ///   - limit: the latency the percentile must not exceed.
    ///   - percentile: the percentile; 99 by default.
    ///   - from: the first rate tried, in requests a second.
    ///   - to: the highest rate tried.
    ///   - stepDuration: how long each step lasts; 5 seconds by default.
    ///   - precision: how close, relatively, the rates that pass and fail get before it stops;
    ///     2 % by default.
    ///   - clock: where the time comes from; a `ManualScheduler` in tests.
    ///   - progress: what each step says while it runs.
    public init(
        limit: Duration, percentile: Double = 99, from: Double, to: Double, stepDuration: Duration = .seconds(5),
        precision: Double = 0.02, clock: LoadClock = .system, progress: LoadProgress = .standardError
    ) {
        self.limit = limit
        self.percentile = percentile
        self.from = from
        self.to = to
        self.stepDuration = stepDuration
        self.precision = precision
        self.clock = clock
        self.progress = progress
    }

    /// Runs the search against `request`; each call gets the request's number within its step.
    ///
    /// - Parameters:
    ///   - executor: where the outcome's callbacks run; `.main` by default.
    ///   - request: makes one request: calls the interactor and returns its response.
    /// - Returns: a response that succeeds with the outcome after the last step, or fails with
    ///   ``LoadDriver/InvalidConfiguration`` when the search cannot run. Cancelling it cancels
    ///   the step running.
    @discardableResult
    public func run<Value>(
        on executor: ResponseExecutor = .main,
        _ request: @escaping @Sendable (Int) -> Response<Value>
    ) -> Response<Outcome> {
        if let problem = configurationProblem { return .failed(problem, on: executor) }
        let (outcome, resolver) = Response<Outcome>.pending(on: executor)
        let running = LockedBox.make(Response<LoadReport>?.none)
        resolver.onCancel { running.withLock { $0 }?.cancel() }
        let search = self
        @Sendable func step(_ plan: RateSearchPlan, _ steps: [Step]) {
            switch plan.next() {
            case .finish(let highest):
                resolver.resolveIfPending(with: .success(Outcome(highestPassingRate: highest, steps: steps)))
            case .run(let rate):
                let driver = LoadDriver(
                    .openLoop(perSecond: rate), for: .duration(search.stepDuration), clock: search.clock,
                    progress: search.progress)
                let report = driver.run(on: .immediate, request)
                running.withLock { $0 = report }
                if resolver.isCancelled { report.cancel() }
                report.onResult { result in
                    switch result {
                    case .failure(let error):
                        // A step cancelled with the search: the search is cancelled already.
                        resolver.resolveIfPending(with: .failure(error))
                    case .success(let report):
                        let latency = report.latencies.value(atPercentile: search.percentile)
                        let passed = latency <= search.limit && report.cancelledAtEnd == 0 && report.latencies.count > 0
                        var plan = plan
                        let isRerun = plan.record(
                            rate: rate, passed: passed, isNearLimit: latency.inSeconds > search.limit.inSeconds * 0.9)
                        step(
                            plan,
                            steps + [
                                Step(rate: rate, latency: latency, passed: passed, isRerun: isRerun, report: report)
                            ])
                    }
                }
            }
        }
        step(RateSearchPlan(from: from, to: to, precision: precision), [])
        return outcome
    }

    /// Runs the search against `request`.
    ///
    /// - Parameters:
    ///   - executor: where the outcome's callbacks run; `.main` by default.
    ///   - request: makes one request: calls the interactor and returns its response.
    /// - Returns: a response that succeeds with the outcome after the last step.
    @discardableResult
    public func run<Value>(
        on executor: ResponseExecutor = .main,
        _ request: @escaping @Sendable () -> Response<Value>
    ) -> Response<Outcome> {
        run(on: executor) { (_: Int) in request() }
    }

    /// What is wrong with this search, or `nil` when it can run.
    private var configurationProblem: LoadDriver.InvalidConfiguration? {
        if !(from > 0 && from.isFinite && to >= from && to.isFinite) {
            return .init(reason: "LoadRateSearch from \(from) to \(to) needs 0 < from ≤ to, both finite")
        }
        if !(percentile > 0 && percentile <= 100) {
            return .init(reason: "LoadRateSearch percentile \(percentile) is not in (0, 100]")
        }
        if !(precision > 0) || stepDuration <= .zero {
            return .init(reason: "LoadRateSearch needs a positive precision and step duration")
        }
        return nil
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
    /// The duration in seconds, as a `Double`.
    fileprivate var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
