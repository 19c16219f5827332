import ResponseKit

/// Puts an interactor under load and reports its throughput and latency percentiles.
///
/// Point it at any function that returns a ResponseKit `Response`, pick how the requests
/// arrive and for how long, and read the ``LoadReport``:
///
/// <!-- example: fragment -->
/// ```swift
/// nonisolated struct Greeter: Sendable {   // called from any thread
///     func greet(_ name: String) -> Response<String> { Response(on: .global()) { "Hello, \(name)" } }
/// }
/// let greeter = Greeter()
///
/// let driver = LoadDriver(.closedLoop(inFlight: 64), for: .duration(.seconds(1)), warmUp: .requests(1_000))
/// let report = try driver.run { greeter.greet("Ada") }.value
/// print(report.table)
/// ```
///
/// ## Closed loop or open loop
///
/// - ``Mode/closedLoop(inFlight:)`` keeps *n* requests in flight: each answer starts the next
///   request. It finds how many requests per second the interactor can sustain. Latency runs from
///   the moment a request is made to the moment its answer arrives.
/// - ``Mode/openLoop(perSecond:)`` starts requests on a fixed schedule, whether or not earlier ones
///   have been answered, as users arriving at a server do. Latency runs from each request's
///   *intended* start (the run's start plus *i* / rate), as wrk2 measures it. A closed loop waits
///   for a slow answer before it sends more, so it never sees the requests that would have queued
///   behind it (*coordinated omission*); an open loop counts that queueing delay in full.
/// - ``Mode/openLoopStages(_:)`` and ``Mode/closedLoopStages(_:)`` move the rate or the requests
///   in flight over time, as ``LoadStage``s say: ramp up, hold, ramp down, in one run.
///
/// ## What is counted
///
/// Requests made during the ``Length`` given as `warmUp` are not counted. Of the rest, every
/// answer is counted in the latency histogram, successes and failures alike: ``LoadReport/completed``
/// counts the successes, ``LoadReport/failures`` the failures by error type, ``LoadReport/cancelled``
/// the answers that were `CancellationError`. Once every request is made, the driver waits up to
/// `drainTimeout` for the answers still due, then cancels what is left
/// (``LoadReport/cancelledAtEnd``, not counted in the latencies or the throughput).
///
/// ## Threads
///
/// `run` returns at once; the first requests are made from a job on the clock's scheduler
/// (a global queue for ``LoadClock/system``). In a closed loop each later request is made by the
/// callback that received the previous answer, on the executor of the interactor's response (the
/// main queue for a default `Response.pending()`: keep it serviced, as `dispatchMain()` or a
/// blocking read on the main thread does). In an open loop the clock's timer jobs make them. The request function must therefore be safe to call from any thread; it is
/// `@Sendable`, and in a target with main-actor isolation by default (Xcode 26) the interactor it
/// calls is `nonisolated`, as in the example above.
///
/// ## The driver's own cost
///
/// With an interactor that answers at once (`.succeeded(n, on: .immediate)`), a closed loop costs
/// the driver about 300 ns a request on one core (a clock read, a callback, a histogram bucket,
/// three uncontended locks): some 3 million requests a second, several times what ResponseKit
/// delivers across threads in its own benchmark W7/64. Answers delivered on `.main` add the main
/// queue's hop: some 2 million a second. `swift run -c release ResponseKitDemoLoad echo` measures
/// it on your machine.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadDriver: Sendable {
    /// How requests arrive.
    public enum Mode: Sendable, Hashable {
        /// Keeps `inFlight` requests pending at all times: each answer starts the next request.
        case closedLoop(inFlight: Int)
        /// Starts `perSecond` requests a second on a fixed schedule, answered or not; latency
        /// counts from each request's intended start.
        case openLoop(perSecond: Double)
        /// An open loop whose rate follows the stages' targets (requests a second), from 0 at
        /// the run's start: request *i* is meant to start when the rate's integral reaches *i*.
        /// After the last stage its target holds.
        case openLoopStages([LoadStage])
        /// A closed loop whose requests in flight follow the stages' targets (rounded to the
        /// nearest whole number), from 0 at the run's start. A lane that is no longer wanted
        /// finishes the request it has in flight and makes no more until it is wanted again.
        /// After the last stage its target holds.
        case closedLoopStages([LoadStage])

        /// The stages, or `nil` for a fixed rate or number in flight.
        var stages: [LoadStage]? {
            switch self {
            case .openLoopStages(let stages), .closedLoopStages(let stages): stages
            case .openLoop, .closedLoop: nil
            }
        }
    }

    /// How long a part of the run lasts: the measured part, or the warm-up.
    public enum Length: Sendable, Hashable {
        /// Requests made during this much time; in an open loop, those whose intended start falls
        /// in it.
        case duration(Duration)
        /// This many requests.
        case requests(Int)
    }

    /// How requests arrive.
    public let mode: Mode
    /// How long the measured part of the run lasts.
    public let length: Length
    /// How long the uncounted part before it lasts.
    public let warmUp: Length
    /// How long the driver waits, after the last request is made, for the answers still due.
    public let drainTimeout: Duration
    /// Where the time comes from.
    public let clock: LoadClock
    /// What the driver says while it runs.
    public let progress: LoadProgress
    /// How long each of the report's ``LoadReport/intervals`` lasts: the resolution of latency
    /// and throughput over time.
    public let interval: Duration

    /// Describes a run; nothing starts before ``run(on:_:)-(_,(Int)->Response<Value>)``.
    ///
    /// - Parameters:
    ///   - mode: closed loop with *n* in flight, or open loop at a fixed rate.
    ///   - length: how long the measured part lasts: a duration or a number of requests.
    ///   - warmUp: how long to run before counting; none by default.
    ///   - drainTimeout: how long to wait at the end for answers still due before cancelling
    ///     them; 10 seconds by default.
    ///   - clock: where the time comes from; real time by default, a `ManualScheduler` in tests.
    ///   - progress: what to say while running; by default a line on standard error, once a
    ///     second, when it is a terminal.
    ///   - interval: how long each of the report's intervals lasts (latency and throughput over
    ///     time); a second by default.
    ///
    /// A configuration that cannot run (no request in flight, a rate that is not positive and
    /// finite, a negative count or duration, stages that never make a request) is not a crash:
    /// ``run(on:_:)-(_,(Int)->Response<Value>)`` returns a response failed with
    /// ``InvalidConfiguration``, which says what is wrong.
    public init(
        _ mode: Mode,
        for length: Length,
        warmUp: Length = .requests(0),
        drainTimeout: Duration = .seconds(10),
        clock: LoadClock = .system,
        progress: LoadProgress = .standardError,
        interval: Duration = .seconds(1)
    ) {
        self.mode = mode
        self.length = length
        self.warmUp = warmUp
        self.drainTimeout = drainTimeout
        self.clock = clock
        self.progress = progress
        self.interval = interval
    }

    /// Describes a run that lasts as long as its stages, measured from the start.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// // Up to 500 requests a second over 10 s, 20 s there, then down to 0 over 10 s.
    /// let driver = LoadDriver(.openLoopStages([
    ///     .ramp(to: 500, over: .seconds(10)), .step(to: 500, for: .seconds(20)), .ramp(to: 0, over: .seconds(10)),
    /// ]))
    /// ```
    ///
    /// - Parameters:
    ///   - mode: ``Mode/openLoopStages(_:)`` or ``Mode/closedLoopStages(_:)``.
    ///   - drainTimeout: how long to wait at the end for answers still due before cancelling
    ///     them; 10 seconds by default.
    ///   - clock: where the time comes from; real time by default, a `ManualScheduler` in tests.
    ///   - progress: what to say while running.
    ///   - interval: how long each of the report's intervals lasts; a second by default.
    /// - Precondition: `mode` has stages; give any other mode a length with
    ///   ``init(_:for:warmUp:drainTimeout:clock:progress:interval:)``.
    public init(
        _ mode: Mode,
        drainTimeout: Duration = .seconds(10),
        clock: LoadClock = .system,
        progress: LoadProgress = .standardError,
        interval: Duration = .seconds(1)
    ) {
        guard let stages = mode.stages else {
            preconditionFailure(
                "LoadDriver(\(mode)) has no stages to say how long it lasts: give it a length with `for:`")
        }
        self.init(
            mode, for: .duration(.nanoseconds(LoadSchedule(stages).duration)), drainTimeout: drainTimeout, clock: clock,
            progress: progress, interval: interval)
    }

    /// Runs `request` under load; each call gets the request's number, from 0 (warm-up included).
    ///
    /// - Parameters:
    ///   - executor: where the report's callbacks run; `.main` by default.
    ///   - request: makes one request: calls the interactor and returns its response.
    /// - Returns: a response that succeeds with the report once the last answer is in (or the
    ///   drain timeout has passed). Cancelling it stops the run: no more requests are made, those
    ///   in flight are cancelled, and it fails with `CancellationError`.
    /// - Note: In a target with main-actor isolation by default (Xcode 26), the interactor that
    ///   `request` calls must be `nonisolated`: see ResponseKit's article "Apps on the main actor
    ///   by default".
    @inlinable
    @discardableResult
    public func run<Value>(
        on executor: ResponseExecutor = .main,
        _ request: @escaping @Sendable (Int) -> Response<Value>
    ) -> Response<LoadReport> {
        // Inlined, with `LoadRun.makeRequest(with:)`, so that a request is specialised for `Value`.
        start(on: executor, LoadRun.makeRequest(with: request))
    }

    /// Runs `request` under load.
    ///
    /// - Parameters:
    ///   - executor: where the report's callbacks run; `.main` by default.
    ///   - request: makes one request: calls the interactor and returns its response.
    /// - Returns: a response that succeeds with the report once the last answer is in (or the
    ///   drain timeout has passed).
    @inlinable
    @discardableResult
    public func run<Value>(
        on executor: ResponseExecutor = .main,
        _ request: @escaping @Sendable () -> Response<Value>
    ) -> Response<LoadReport> {
        run(on: executor) { (_: Int) in request() }
    }

    /// Why a driver cannot run: the reason names the value at fault, as in
    /// `.closedLoop(inFlight: 0) needs at least 1 in flight`.
    public struct InvalidConfiguration: Error, Hashable, CustomStringConvertible {
        /// What is wrong, and with which value.
        public let reason: String

        /// The reason, prefixed with the type's name.
        public var description: String { "LoadDriver: \(reason)" }
    }

    /// What is wrong with this configuration, or `nil` when it can run.
    var configurationProblem: InvalidConfiguration? {
        switch mode {
        case .closedLoop(let inFlight) where inFlight < 1:
            return InvalidConfiguration(reason: ".closedLoop(inFlight: \(inFlight)) needs at least 1 in flight")
        case .openLoop(let perSecond) where !(perSecond > 0 && perSecond.isFinite):
            return InvalidConfiguration(reason: ".openLoop(perSecond: \(perSecond)) needs a positive, finite rate")
        default:
            break
        }
        if let stages = mode.stages {
            for (number, stage) in zip(1..., stages)
            where !(stage.target >= 0 && stage.target.isFinite) || stage.duration < .zero {
                return InvalidConfiguration(
                    reason:
                        "stage \(number) (target \(stage.target), \(stage.duration)) needs a target that is 0 or more "
                        + "and finite, and a duration that is not negative")
            }
            if case .closedLoopStages = mode, let stage = stages.first(where: { $0.target > 1_000_000 }) {
                // Each lane is a slot in a shard, made up front: a million is far past any use.
                return InvalidConfiguration(
                    reason: "a closed loop in stages goes up to \(stage.target), past 1,000,000")
            }
            let schedule = LoadSchedule(stages)
            let isIdle =
                if case .closedLoopStages = mode { schedule.maximumLanes == 0 } else { !(schedule.totalArrivals > 0) }
            if isIdle {
                return InvalidConfiguration(reason: "stages with targets \(stages.map(\.target)) never make a request")
            }
            if case .closedLoopStages = mode, case .requests(let count) = warmUp, count > 0 {
                return InvalidConfiguration(
                    reason: "a closed loop in stages needs its warm-up as a duration, not .requests(\(count))")
            }
        }
        for part in [length, warmUp] {
            switch part {
            case .duration(let duration) where duration < .zero:
                return InvalidConfiguration(reason: ".duration(\(duration)) cannot be negative")
            case .requests(let count) where count < 0:
                return InvalidConfiguration(reason: ".requests(\(count)) cannot be negative")
            default:
                continue
            }
        }
        if drainTimeout < .zero {
            return InvalidConfiguration(reason: "drainTimeout \(drainTimeout) cannot be negative")
        }
        if interval < .milliseconds(1) {
            return InvalidConfiguration(reason: "interval \(interval) is shorter than a millisecond")
        }
        return nil
    }

    /// Starts a run whose requests `makeRequest` makes.
    @usableFromInline
    func start(on executor: ResponseExecutor, _ makeRequest: @escaping LoadRun.MakeRequest) -> Response<LoadReport> {
        if let configurationProblem { return .failed(configurationProblem, on: executor) }
        let (report, resolver) = Response<LoadReport>.pending(on: executor)
        let run = LoadRun(driver: self, makeRequest: makeRequest) { total, _ in
            resolver.resolveIfPending(with: .success(total))
        }
        resolver.onCancel { run.stop() }
        run.start()
        return report
    }
}
