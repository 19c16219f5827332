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
    private var timers: [ScheduledJob?] = [nil, nil, nil, nil]

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

        /// The intended start of request `index`.
        func intendedStart(of index: Int) -> UInt64 {
            startTime &+ UInt64((Double(index) * interval).rounded())
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

    var isFinished: Bool {
        if case .finished = phase { true } else { false }
    }

    // MARK: - Start

    /// Starts the clock; a closed loop's lanes all count as running from here.
    mutating func start(at now: UInt64, lanes: Int) {
        startTime = now
        arrivals.startTime = now
        lanesRunning = lanes
    }

    /// What a timer of the run does; the run keeps the latest of each, to cancel when it ends.
    enum Timer: Int {
        /// Starts the run.
        case start
        /// Makes the next open-loop requests.
        case arrivals
        /// Says how far the run has got.
        case progress
        /// Ends an interval of the report.
        case interval
    }

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

    /// The next request of a closed loop, asked at `now` by a lane that has nothing in flight.
    mutating func claim(at now: UInt64) -> Claim {
        switch phase {
        case .finished: return .stop(.none)
        case .draining: return .stop(laneEnded())
        case .issuing: break
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
            return .stop(laneEnded(isFirst: true))
        }
        next += 1
        measuredRequests += 1
        return .request(index: next - 1, isMeasured: true)
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
        defer { timers = [nil, nil, nil, nil] }
        return timers.compactMap { $0 }
    }
}
