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
    /// Where the test made it, for the response checks' report of jobs left in it.
    private let file: String
    private let line: UInt

    /// Makes a scheduler whose clock reads zero. Under the response checks
    /// (``ResponseChecksTrait``), jobs still scheduled when the test ends are a problem of the test.
    ///
    /// - Parameters:
    ///   - file: where it is made, for that report. Leave the default.
    ///   - line: where it is made, for that report. Leave the default.
    public init(file: StaticString = #fileID, line: UInt = #line) {
        self.file = "\(file)"
        self.line = line
        ResponseCheckScope.current?.watch(self)
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
        let (count, now) = state.withLock { ($0.jobs.count, $0.now) }
        return ResponseCheckScope.Leftover.jobs(
            count,
            leftIn: "ManualScheduler",
            madeAt: file,
            line: line,
            state: "scheduled, at \(now),",
            advice: "advance it past them, or cancel what scheduled them"
        )
    }
}
