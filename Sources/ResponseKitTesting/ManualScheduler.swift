import ResponseKit

/// A `ResponseScheduler` whose time moves only when a test says so.
///
/// Scheduled jobs run during ``advance(by:)``, in the order they fall due (jobs due at the same
/// instant in the order they were scheduled), on the thread that advances. A test of a timeout
/// therefore reads: not timed out, advance, timed out. No sleeping:
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import Testing
///
/// struct Profile: Sendable { let name: String }
///
/// @Test func slowProfileTimesOut() {
///     let scheduler = ManualScheduler()
///     // The test keeps the resolver to the end: dropping it would fail `work` at once (abandoned).
///     let (work, resolver) = Response<Profile>.pending(on: .immediate)
///     let profile = work.timeout(after: .seconds(5), scheduler: scheduler)
///
///     scheduler.advance(by: .seconds(4))
///     #expect(!profile.isDone)
///     scheduler.advance(by: .seconds(1))
///     #expect(throws: ResponseError.deadlineExceeded) { try profile.value }
///     #expect(work.isCancelled)
///     #expect(!resolver.succeed(Profile(name: "Ada")))   // too late: the work was cancelled
/// }
/// ```
///
/// The scheduler is safe to schedule on, and to cancel on, from any thread.
///
/// ## Jobs left behind
///
/// A timer that never fired is a path the test never checked, so a test cannot pass with one,
/// as SwiftNIO's `EmbeddedEventLoop` traps when freed with tasks pending. Jobs still scheduled
/// when the scheduler is released are reported, naming the line that made it and how many are
/// left, as ``ManualExecutor`` reports its queued jobs: a `leftoverWork` problem of the test under
/// the response checks (reported once, with those still scheduled when the test ends); else an
/// issue of the Swift Testing test running; else an XCTest failure and a report to
/// `ResponseDiagnostics.handler`. A job that holds the scheduler itself keeps it alive, unreleased
/// and unreported, until the job runs or is dropped; the response checks still report it when the
/// test ends.
///
/// Advance past them, or cancel what scheduled them. A test that means to leave timers unfired
/// says so with ``discardPendingJobs()``:
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import Testing
///
/// @Test func theBanner_waitsTwoSeconds() {
///     let scheduler = ManualScheduler()
///     let banner = Response.succeeded("Saved", on: .immediate).delay(by: .seconds(2), scheduler: scheduler)
///
///     scheduler.advance(by: .seconds(1))
///     #expect(!banner.isDone)
///     #expect(scheduler.discardPendingJobs() == 1)   // the banner's timer: the test stops here
/// }
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class ManualScheduler: ResponseScheduler {
    private struct Job {
        let id: Int
        let due: Duration
        let run: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var nextID = 0
        /// Latest first, so the next job to run is the last: taking it is O(1), where searching
        /// the whole list for each job made an advance over n pending jobs quadratic (ten
        /// thousand timers took 13 s in a debug build).
        var jobs: [Job] = []

        mutating func insert(_ job: Job) {
            // Binary search for the first job due before `job`: a job scheduled later for the
            // same instant goes in front of those already there, so it runs after them.
            var low = 0
            var high = jobs.count
            while low < high {
                let middle = (low + high) / 2
                if (jobs[middle].due, jobs[middle].id) > (job.due, job.id) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            jobs.insert(job, at: low)
        }
    }

    private let state = LockedBox.make(State())
    /// Where the test made it, and the one report of the jobs it is left with.
    private let leftoverReport: LeftoverJobs

    /// Makes a scheduler whose clock reads zero.
    ///
    /// - Parameters:
    ///   - file: where it is made, for the report of jobs left in it. Leave the default.
    ///   - line: where it is made, for that report. Leave the default.
    public init(file: StaticString = #fileID, line: UInt = #line) {
        leftoverReport = LeftoverJobs(of: "ManualScheduler", madeAt: file, line: line)
        leftoverReport.watch(self)
    }

    /// Reports the jobs never run, unless the response checks reported them when the test ended.
    deinit {
        let firstUnreported = leftoverReport.firstUnreported
        let (unreported, now) = state.withLock { state in
            (state.jobs.count { $0.id >= firstUnreported }, state.now)
        }
        leftoverReport.atRelease(unreported, state: Self.waiting(now), advice: Self.advice)
    }

    /// How much virtual time has passed.
    public var now: Duration { state.withLock { $0.now } }

    /// How many jobs wait for their time.
    public var pendingCount: Int { state.withLock { $0.jobs.count } }

    /// Queues `job` to run once the clock reaches now + `delay`.
    ///
    /// - Parameters:
    ///   - delay: how far in virtual time; zero or less runs at the next ``advance(by:)``.
    ///   - job: the work to run.
    /// - Returns: a handle that removes the job.
    public func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> ScheduledJob {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.insert(Job(id: id, due: state.now + max(delay, .zero), run: job))
            return id
        }
        return ScheduledJob { [state] in
            let removed = state.withLock { state -> Job? in
                guard let index = state.jobs.firstIndex(where: { $0.id == id }) else { return nil }
                return state.jobs.remove(at: index)
            }
            // Freed here, outside the lock: what the job captured may schedule or cancel on this
            // scheduler as it goes.
            withExtendedLifetime(removed) {}
        }
    }

    /// Moves the clock forward by `interval`, running every job that falls due on the way,
    /// including jobs those jobs schedule.
    ///
    /// - Parameter interval: how far to move; negative values count as zero.
    /// - Returns: how many jobs ran.
    @discardableResult
    public func advance(by interval: Duration) -> Int {
        let target = state.withLock { $0.now + max(interval, .zero) }
        var ran = 0
        while let job = takeNextJob(dueBy: target) {
            job.run()
            ran += 1
        }
        state.withLock { $0.now = max($0.now, target) }
        return ran
    }

    /// Runs the jobs due now, without moving the clock.
    ///
    /// - Returns: how many jobs ran.
    @discardableResult
    public func runDue() -> Int {
        advance(by: .zero)
    }

    /// Drops every scheduled job without running it, and leaves the clock where it is: for a test
    /// that means to leave timers unfired, which the scheduler would otherwise report when it is
    /// released (see "Jobs left behind"). Cancelling a dropped job's handle does nothing.
    ///
    /// What the jobs held is freed with them: a dropped resolver fails its response as
    /// abandoned, which may schedule more here; jobs scheduled that way are dropped too.
    ///
    /// - Returns: how many jobs were dropped.
    @discardableResult
    public func discardPendingJobs() -> Int {
        var count = 0
        while true {
            let dropped = state.withLock { state in
                defer { state.jobs = [] }
                return state.jobs
            }
            guard !dropped.isEmpty else { return count }
            count += dropped.count
            // `dropped` is freed here, outside the lock, at the end of each turn.
        }
    }

    private func takeNextJob(dueBy target: Duration) -> Job? {
        state.withLock { state in
            guard let next = state.jobs.last, next.due <= target else { return nil }
            let job = state.jobs.removeLast()
            state.now = max(state.now, job.due)
            return job
        }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ManualScheduler: ResponseCheckScope.Watched {
    /// Jobs never run, for the response checks.
    package func leftovers() -> [ResponseCheckScope.Leftover] {
        let (count, next, now) = state.withLock { ($0.jobs.count, $0.nextID, $0.now) }
        return leftoverReport.atEndOfTest(count, numberedBelow: next, state: Self.waiting(now), advice: Self.advice)
    }

    private static func waiting(_ now: Duration) -> String {
        "scheduled (its clock at \(now))"
    }

    private static var advice: String {
        "advance it past them, cancel what scheduled them, or drop them with discardPendingJobs() if the test means to"
    }
}
