import ResponseKit
import ResponseKitLoad
import ResponseKitTesting
import Testing

/// An interactor whose every latency is known: request *i* takes `serviceTime(i)` of a
/// `ManualScheduler`'s time. Either each request is served on its own (`serial: false`), or one at
/// a time, first come first served, as a single worker thread would: a request then also waits
/// for those before it, which is the queueing delay an open loop measures and a closed loop hides.
final class FakeServer: Sendable {
    let scheduler: ManualScheduler
    private let serviceTime: @Sendable (Int) -> Duration
    private let isSerial: Bool
    /// When the single worker is free again (serial only).
    private let busyUntil = LockedBox.make(Duration.zero)

    init(scheduler: ManualScheduler, serial: Bool = false, serviceTime: @escaping @Sendable (Int) -> Duration) {
        self.scheduler = scheduler
        self.isSerial = serial
        self.serviceTime = serviceTime
    }

    /// The driver under test, on the server's clock, silent.
    func driver(
        _ mode: LoadDriver.Mode, for length: LoadDriver.Length, warmUp: LoadDriver.Length = .requests(0),
        drainTimeout: Duration = .seconds(10), progress: LoadProgress = .silent, interval: Duration = .seconds(1)
    ) -> LoadDriver {
        LoadDriver(
            mode, for: length, warmUp: warmUp, drainTimeout: drainTimeout,
            clock: LoadClock(scheduler: scheduler, now: { [scheduler] in scheduler.now }), progress: progress,
            interval: interval)
    }

    /// A driver in stages (``LoadDriver/Mode/openLoopStages(_:)`` or
    /// ``LoadDriver/Mode/closedLoopStages(_:)``) on the server's clock, silent, as long as its stages.
    func driver(stages mode: LoadDriver.Mode, interval: Duration = .seconds(1)) -> LoadDriver {
        LoadDriver(
            mode, clock: LoadClock(scheduler: scheduler, now: { [scheduler] in scheduler.now }), progress: .silent,
            interval: interval)
    }

    /// Answers request `index` with `index` after its service time (and its wait, when serial).
    func handle(_ index: Int) -> Response<Int> {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let now = scheduler.now
        let finish = busyUntil.withLock { busyUntil in
            let finish = (isSerial ? max(now, busyUntil) : now) + serviceTime(index)
            busyUntil = max(busyUntil, finish)
            return finish
        }
        let job = scheduler.schedule(after: finish - now) { resolver.succeed(index) }
        resolver.onCancel { job.cancel() }
        return response
    }

    /// Runs `driver` against this server to the end, in virtual time.
    func run(_ driver: LoadDriver) throws -> LoadReport {
        try run(driver) { self.handle($0) }
    }

    /// Runs `driver` against `request` to the end: advances the clock until the report is in.
    func run<Value>(_ driver: LoadDriver, _ request: @escaping @Sendable (Int) -> Response<Value>) throws -> LoadReport
    {
        let report = driver.run(on: .immediate, request)
        scheduler.advance(by: .seconds(100_000))
        #expect(report.isDone, "the run did not finish within 100,000 s of virtual time")
        return try report.value
    }
}
