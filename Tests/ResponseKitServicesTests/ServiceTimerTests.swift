import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

@testable import ResponseKitServices

/// `SchedulerServiceTimer`. By default it counts real time: those tests use real but tiny
/// durations, the only tests here that let time pass, and block on the timer's response rather
/// than sleep. Over a `ManualScheduler`, time moves only when the test says.
struct ServiceTimerTests {
    @Test func succeedsOnceTheDurationHasPassed() throws {
        let started = ContinuousClock.now
        let timeout = SchedulerServiceTimer().timeout(after: .milliseconds(20))

        try timeout.wait(timeout: .seconds(30))

        #expect(ContinuousClock.now - started >= .milliseconds(20))
    }

    @Test func cancellingStopsTheTimer() throws {
        let timeout = SchedulerServiceTimer().timeout(after: .seconds(3600))
        #expect(timeout.cancel())
        #expect(timeout.error is CancellationError)
    }

    @Test func anAbsurdlyLongDuration_neverFires_ratherThanFiringAtOnce() {
        let timeout = SchedulerServiceTimer().timeout(after: .seconds(Int64.max))
        #expect(throws: ResponseError.timedOut) { try timeout.wait(timeout: .milliseconds(30)) }
        timeout.cancel()
    }

    @Test func schedulerTimer_firesExactlyWhenTheSchedulerReachesTheDuration() {
        let scheduler = ManualScheduler()
        let timeout = SchedulerServiceTimer(scheduler).timeout(after: .seconds(5))
        scheduler.advance(by: .seconds(4))
        #expect(!timeout.isDone)
        scheduler.advance(by: .seconds(1))
        #expect(timeout.isSuccessful)
    }

    @Test func schedulerTimer_cancelled_dropsItsJob() {
        let scheduler = ManualScheduler()
        let timeout = SchedulerServiceTimer(scheduler).timeout(after: .seconds(5))
        #expect(scheduler.pendingCount == 1)
        timeout.cancel()
        #expect(scheduler.pendingCount == 0)
    }

    /// The manager with the real timer: a hanging service is given up on after a short stop limit.
    @MainActor @Test func aManagerWithTheRealTimer_givesUpOnAHangingService() async throws {
        let journal = Journal()
        let manager = ServiceManager(
            timeouts: ServiceTimeouts(stop: .milliseconds(10)),
            timer: SchedulerServiceTimer(),
            onFailure: { _ in }
        )
        try manager.register(ScriptedService(name: "a", journal: journal))
        try manager.register(ScriptedService(name: "b", journal: journal, stop: .hold))
        _ = await outcome(of: try manager.start())

        let result = await outcome(of: manager.stop())

        #expect(result.failedServiceNames == ["b"])
        #expect(journal.lines == ["start a", "start b", "stop b", "stop a"])
    }
}
