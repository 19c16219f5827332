import Dispatch
import ResponseKit

/// Where a ``LoadDriver`` reads the time and schedules its timers: real time, or a test's own.
///
/// The driver reads the clock to time each request and schedules on it the start of the run,
/// each arrival of an open loop, the progress line and the deadline for answers at the end. In
/// production that is ``system``. A test hands it a `ManualScheduler` and reads that scheduler's
/// virtual time, so a run of many seconds takes none, and every latency is known exactly:
///
/// <!-- example: fragment -->
/// ```swift
/// let scheduler = ManualScheduler()
/// let clock = LoadClock(scheduler: scheduler, now: { scheduler.now })
/// // A fake interactor: each answer takes 20 ms of the scheduler's time.
/// let fake: @Sendable (Int) -> Response<Int> = { number in
///     let (response, resolver) = Response<Int>.pending(on: .immediate)
///     _ = scheduler.schedule(after: .milliseconds(20)) { resolver.succeed(number) }
///     return response
/// }
///
/// let driver = LoadDriver(.closedLoop(inFlight: 4), for: .requests(100), clock: clock, progress: .silent)
/// let report = driver.run(on: .immediate, fake)
/// scheduler.advance(by: .seconds(1))   // 25 rounds of 20 ms: done at 500 ms
/// #expect(try report.value.latencies.maximum == .milliseconds(20))
/// #expect(try report.value.throughput == 200)
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadClock: Sendable {
    private enum Source: Sendable {
        /// The monotonic clock Dispatch's timers use, read without a closure or a `Duration`.
        case system
        case custom(@Sendable () -> Duration)
    }

    private let source: Source
    /// Runs the driver's timers.
    let scheduler: any ResponseScheduler

    /// Real time: Dispatch's monotonic clock (`DispatchTime.now()`) and timers on a global queue.
    public static var system: LoadClock {
        LoadClock(source: .system, scheduler: DispatchScheduler())
    }

    /// A clock made of a scheduler and a way to read the time that scheduler keeps.
    ///
    /// - Parameters:
    ///   - scheduler: runs the driver's timers; `now` must advance as its jobs fall due.
    ///   - now: the time, from any fixed origin; never decreasing.
    public init(scheduler: any ResponseScheduler, now: @escaping @Sendable () -> Duration) {
        self.init(source: .custom(now), scheduler: scheduler)
    }

    private init(source: Source, scheduler: any ResponseScheduler) {
        self.source = source
        self.scheduler = scheduler
    }

    /// The time in nanoseconds from the clock's origin.
    @inline(__always)
    func nanoseconds() -> UInt64 {
        switch source {
        case .system: DispatchTime.now().uptimeNanoseconds
        case .custom(let now): now().loadNanoseconds
        }
    }

    /// Runs `job` at `deadline` on the clock (as soon as possible when it has passed).
    func schedule(at deadline: UInt64, _ job: @escaping @Sendable () -> Void) -> ScheduledJob {
        let now = nanoseconds()
        let delay = deadline > now ? Duration.nanoseconds(deadline - now) : .zero
        return scheduler.schedule(after: delay, job)
    }
}
