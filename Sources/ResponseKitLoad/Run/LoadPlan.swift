import ResponseKit

/// Which request comes next and when the run is over: the run's state machine, a plain struct
/// that ``LoadRun`` keeps under its lock. Each transition returns what the caller must do once the
/// lock is released (make a request, schedule the deadline, finish), never doing it itself.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct LoadPlan {
    enum Phase {
        /// Requests are still being made.
        case issuing
        /// Every request is made (or the run was stopped); answers are still due. Carries the job
        /// that cancels what is left at the deadline, once scheduled.
        case draining(deadline: ScheduledJob?)
        /// The report is made; nothing more happens.
        case finished
    }

    /// A closed loop's answer to "may this lane make another request?".
    enum Claim {
        /// Make request `index`; count its answer when `isMeasured`.
        case request(index: Int, isMeasured: Bool)
        /// No more requests for this lane.
        case stop(Ending)
        /// The stages want fewer lanes: this one makes no request until ``changeLanes(at:)``
        /// wakes it.
        case park
    }

    /// What ending a lane, or the last answer of an open loop, asks of the caller.
    enum Ending {
        /// Nothing: others are still running.
        case none
        /// The first to find no more requests: schedule the deadline for the answers still due.
        case startDraining
        /// The last one: make the report, and cancel these jobs.
        case finish(cancelling: [ScheduledJob])
    }

    let mode: LoadDriver.Mode
    let length: LoadDriver.Length
    let warmUp: LoadDriver.Length
    private(set) var phase = Phase.issuing
    /// When the run started, in the clock's nanoseconds.
    private(set) var startTime: UInt64 = 0
    /// When the first measured request started (intended start, in an open loop).
    private(set) var measurementStart: UInt64?
    /// The number of the next request.
    private(set) var next = 0
    /// How many measured requests were made.
    private(set) var measuredRequests = 0
    /// Closed loop: lanes still making requests or waiting for an answer.
    private var lanesRunning = 0
    /// Open loop: requests made and not answered.
    private var outstanding = 0
    /// The latest job of each ``Timer``, by raw value.
    private var timers = Self.noTimers

    /// Closed loop in stages: the lanes from each time on; empty otherwise.
    private let laneChanges: [LoadSchedule.LaneChange]
    /// The first of ``laneChanges`` not made yet.
    private var nextLaneChange = 0
    /// Closed loop in stages: how many lanes make requests now (lanes 0 to this − 1).
    private var activeLanes = Int.max
    /// Closed loop in stages: the lanes waiting for ``activeLanes`` to grow past them.
    private var parkedLanes: Set<Int> = []

    /// When an open loop's requests are meant to start.
    struct Arrivals {
        /// How many requests are warm-up.
        var warmUp = 0
        /// How many requests in all.
        var total = 0
        /// Nanoseconds between two intended starts.
        var interval = 0.0
        /// When request 0 is meant to start.
        var startTime: UInt64 = 0
        /// The schedule of an open loop in stages, or `nil` at a fixed rate.
        var schedule: LoadSchedule?

        /// The intended start of request `index` (below ``total``).
        func intendedStart(of index: Int) -> UInt64 {
            guard let schedule else { return startTime &+ UInt64((Double(index) * interval).rounded()) }
            return startTime &+ UInt64((schedule.start(ofArrival: index) ?? 0).rounded())
        }
    }

    /// The open loop's schedule; all zeros in a closed loop.
    private(set) var arrivals = Arrivals()

    /// The durations of ``length`` and ``warmUp`` in nanoseconds (zero for request counts), worked
    /// out once: `Duration`'s 128-bit arithmetic cost a closed loop 5 % of its time per request.
    private let lengthNanoseconds: UInt64
    private let warmUpNanoseconds: UInt64

    init(driver: LoadDriver) {
        mode = driver.mode
        length = driver.length
        warmUp = driver.warmUp
        func nanoseconds(_ part: LoadDriver.Length) -> UInt64 {
            if case .duration(let duration) = part { duration.loadNanoseconds } else { 0 }
        }
        lengthNanoseconds = nanoseconds(length)
        warmUpNanoseconds = nanoseconds(warmUp)
        if case .closedLoopStages(let stages) = mode {
            laneChanges = LoadSchedule(stages).laneChanges
        } else {
            laneChanges = []
        }
        if case .openLoopStages(let stages) = mode {
            arrivals = Self.arrivals(of: LoadSchedule(stages), length: length, warmUp: warmUp)
            return
        }
        guard case .openLoop(let perSecond) = mode else { return }
        func count(_ part: LoadDriver.Length) -> Int {
            switch part {
            case .requests(let count): return count
            case .duration(let duration):
                // Requests whose intended start falls in the duration; the tolerance keeps 5 s at
                // 1,000 a second from counting 5,001 through rounding.
                return Int((Double(duration.loadNanoseconds) * perSecond / 1e9 - 1e-6).rounded(.up))
            }
        }
        arrivals.warmUp = count(warmUp)
        arrivals.total = arrivals.warmUp + count(length)
        arrivals.interval = 1e9 / perSecond
    }

    /// The requests of an open loop in stages: those whose intended start falls in the warm-up,
    /// then in the length, and never more than the stages make.
    private static func arrivals(
        of schedule: LoadSchedule, length: LoadDriver.Length, warmUp: LoadDriver.Length
    ) -> Arrivals {
        var arrivals = Arrivals(schedule: schedule)
        let measuredFrom: Double
        switch warmUp {
        case .duration(let duration):
            measuredFrom = Double(duration.loadNanoseconds)
            arrivals.warmUp = schedule.count(before: measuredFrom)
        case .requests(let count):
            arrivals.warmUp = min(count, schedule.count(before: .infinity))
            measuredFrom = schedule.start(ofArrival: arrivals.warmUp) ?? .infinity
        }
        switch length {
        case .duration(let duration):
            arrivals.total = schedule.count(before: measuredFrom + Double(duration.loadNanoseconds))
        case .requests(let count):
            arrivals.total = min(arrivals.warmUp + count, schedule.count(before: .infinity))
        }
        return arrivals
    }

    var isFinished: Bool {
        if case .finished = phase { true } else { false }
    }

    // MARK: - Start

    /// Starts the clock; a closed loop's lanes all count as running from here.
    mutating func start(at now: UInt64, lanes: Int) {
        startTime = now
        arrivals.startTime = now
        lanesRunning = lanes
        // In stages, the measured part starts at a known time, so that the run ends at the
        // stages' end even when no lane runs then (a ramp down to 0).
        // (Its warm-up is a duration, or none: a count is a configuration problem.)
        if !laneChanges.isEmpty { measurementStart = now &+ warmUpNanoseconds }
    }

    /// What a timer of the run does; the run keeps the latest of each, to cancel when it ends.
    enum Timer: Int, CaseIterable {
        /// Starts the run.
        case start
        /// Makes the next open-loop requests.
        case arrivals
        /// Says how far the run has got.
        case progress
        /// Ends an interval of the report.
        case interval
        /// Changes a closed loop's lanes, as its stages say.
        case lanes
    }

    /// A slot for each kind of ``Timer``, all empty.
    private static let noTimers = [ScheduledJob?](repeating: nil, count: Timer.allCases.count)

    /// Keeps `job`, the latest timer of its kind, to cancel when the run finishes; `false` (and
    /// the caller cancels it) when it already has.
    mutating func keep(_ job: ScheduledJob, as timer: Timer) -> Bool {
        guard !isFinished else { return false }
        timers[timer.rawValue] = job
        return true
    }

    /// Keeps the deadline job; `false` (and the caller cancels it) when the run already finished.
    mutating func keepDeadline(_ job: ScheduledJob) -> Bool {
        guard case .draining = phase else { return false }
        phase = .draining(deadline: job)
        return true
    }

    // MARK: - Closed loop

    /// The next request of a closed loop, asked at `now` by lane `lane`, which has nothing in
    /// flight.
    mutating func claim(lane: Int, at now: UInt64) -> Claim {
        switch phase {
        case .finished: return .stop(.none)
        case .draining: return .stop(laneEnded())
        case .issuing: break
        }
        if lane >= activeLanes {
            lanesRunning -= 1
            parkedLanes.insert(lane)
            return .park
        }
        let isWarmUp =
            switch warmUp {
            case .requests(let count): next < count
            case .duration: now < startTime &+ warmUpNanoseconds
            }
        if isWarmUp {
            next += 1
            return .request(index: next - 1, isMeasured: false)
        }
        let start = measurementStart ?? now
        measurementStart = start
        let isOver =
            switch length {
            case .requests(let count): measuredRequests >= count
            case .duration: now >= start &+ lengthNanoseconds
            }
        if isOver {
            phase = .draining(deadline: nil)
            parkedLanes = []
            return .stop(laneEnded(isFirst: true))
        }
        next += 1
        measuredRequests += 1
        return .request(index: next - 1, isMeasured: true)
    }

    /// Makes the stages' lane changes due by `now`. Returns the parked lanes to wake (the caller
    /// drives them), when the next change is due, and whether the run is over: its length has
    /// passed, or no lane will run again.
    mutating func changeLanes(at now: UInt64) -> (wake: [Int], nextAt: UInt64?, ending: Ending) {
        guard case .issuing = phase else { return ([], nil, .none) }
        while nextLaneChange < laneChanges.count, startTime &+ laneChanges[nextLaneChange].at <= now {
            activeLanes = laneChanges[nextLaneChange].lanes
            nextLaneChange += 1
        }
        var end: UInt64?
        if case .duration = length, let measurementStart { end = measurementStart &+ lengthNanoseconds }
        let isOver = end.map { now >= $0 } ?? false || (nextLaneChange == laneChanges.count && activeLanes == 0)
        if isOver {
            phase = .draining(deadline: nil)
            parkedLanes = []
            return ([], nil, lanesRunning == 0 ? finish() : .startDraining)
        }
        let wake = parkedLanes.filter { $0 < activeLanes }.sorted()
        parkedLanes.subtract(wake)
        lanesRunning += wake.count
        let nextChange = nextLaneChange < laneChanges.count ? startTime &+ laneChanges[nextLaneChange].at : nil
        let nextAt = [nextChange, end].compactMap { $0 }.min()
        return (wake, nextAt, .none)
    }

    private mutating func laneEnded(isFirst: Bool = false) -> Ending {
        lanesRunning -= 1
        if lanesRunning == 0 { return finish() }
        return isFirst ? .startDraining : .none
    }

    // MARK: - Open loop

    /// The open-loop requests due by `now`, counted as outstanding from here; when the next one
    /// is due, if any; and the schedule, for their intended starts.
    mutating func takeDue(at now: UInt64) -> (due: Range<Int>, nextAt: UInt64?, arrivals: Arrivals, ending: Ending) {
        guard case .issuing = phase else { return (next..<next, nil, arrivals, .none) }
        var end = next
        while end < arrivals.total, arrivals.intendedStart(of: end) <= now { end += 1 }
        let due = next..<end
        if measurementStart == nil, due.contains(arrivals.warmUp) {
            measurementStart = arrivals.intendedStart(of: arrivals.warmUp)
        }
        measuredRequests += due.count { $0 >= arrivals.warmUp }
        outstanding += due.count
        next = end
        guard end == arrivals.total else { return (due, arrivals.intendedStart(of: end), arrivals, .none) }
        phase = .draining(deadline: nil)
        if outstanding == 0 { return (due, nil, arrivals, finish()) }
        return (due, nil, arrivals, .startDraining)
    }

    /// An open-loop answer came in.
    mutating func answered() -> Ending {
        outstanding -= 1
        guard case .draining = phase, outstanding == 0 else { return .none }
        return finish()
    }

    // MARK: - Stop and finish

    /// Stops the run at once (the report was cancelled): no more requests, nothing more to
    /// report. Returns the timers to cancel; the caller cancels the requests in flight.
    mutating func stop() -> [ScheduledJob] {
        guard case .finish(let jobs) = finish() else { return [] }
        return jobs
    }

    private mutating func finish() -> Ending {
        if isFinished { return .none }
        var jobs = takeTimers()
        if case .draining(let deadline?) = phase { jobs.append(deadline) }
        phase = .finished
        return .finish(cancelling: jobs)
    }

    private mutating func takeTimers() -> [ScheduledJob] {
        defer { timers = Self.noTimers }
        return timers.compactMap { $0 }
    }
}
