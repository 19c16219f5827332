import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// What a supervisor hears from a real runner process: `ServiceRunnerFixture` runs under
/// systemd's variables pointing at a datagram socket the test binds, and the test reads the
/// messages, signals the process, and, for the watchdog, blocks its main queue on command.
///
/// Nested in ServiceRunnerProcessTests, whose `.serialized` covers it too: one child process,
/// and one of Swift Testing's threads blocked in these tests' waits, at a time. (As a suite of its
/// own, running beside that one, both threads of a two-core machine were blocked at once, and the
/// whole test run took a third longer.)
extension ServiceRunnerProcessTests {
    @Suite struct Systemd {}
}

extension ServiceRunnerProcessTests.Systemd {
    @Test func theSupervisorHearsReady_thenStoppingAtTheSignal() throws {
        let supervisor = try NotificationSocket(.path)
        let run = try FixtureRun(mode: "clean", environment: supervisor.environment)

        #expect(supervisor.nextBlocking() == "READY=1\nSTATUS=running")
        #expect(run.process.waitForLine("ready"))
        run.process.send(SIGTERM)

        #expect(supervisor.nextBlocking() == "STOPPING=1\nSTATUS=shutting down: received SIGTERM")
        #expect(run.process.waitForExit() == 0)
        #expect(supervisor.queued() == [])
    }

    @Test func underTheShutDownPolicy_aFailedStartEndsTheProcessAtOnce_withStatusOne() throws {
        let supervisor = try NotificationSocket(.abstract)
        let run = try FixtureRun(mode: "failing-start-shut-down", environment: supervisor.environment)

        #expect(run.process.waitForExit() == 1, "no signal was sent")

        #expect(
            supervisor.queued() == [
                "STOPPING=1\nSTATUS=shutting down: database failed to start: the fixture was told to fail"
            ])
        #expect(run.process.lines.contains("start database"))
        #expect(!run.process.lines.contains("start announcer"), "waiting when the shutdown began: never started")
        #expect(!run.process.lines.contains("ready"))
        #expect(run.loggedEvents == ["fixture failing-start-shut-down", "willTerminate"])
    }

    @Test func watchdogPingsArriveAtHalfTheInterval_andNoneWhileTheMainQueueIsBlocked() throws {
        let supervisor = try NotificationSocket(.abstract)
        let interval = Duration.milliseconds(400)
        var environment = supervisor.environment
        environment["WATCHDOG_USEC"] = "400000"
        let run = try FixtureRun(mode: "main-queue-control", environment: environment, takesInput: true)
        let clock = ContinuousClock()

        #expect(supervisor.nextBlocking() == "READY=1\nSTATUS=running")
        var arrivals: [ContinuousClock.Instant] = []
        for _ in 0..<5 {
            #expect(supervisor.nextBlocking() == "WATCHDOG=1")
            arrivals.append(clock.now)
        }
        // The timer fires at fixed times, so a late first or last arrival moves the mean gap only
        // by a quarter of its lateness: twice too fast or twice too slow is no jitter.
        let meanGap = (arrivals[4] - arrivals[0]) / 4
        #expect(meanGap > interval / 4 && meanGap < interval, "mean gap \(meanGap); period \(interval / 2)")

        run.process.writeLine("block")
        try #require(run.process.waitForLine("blocked"))
        let sentBeforeTheBlock = supervisor.queued()  // every ping sent before the job began is queued now
        #expect(sentBeforeTheBlock.allSatisfy { $0 == "WATCHDOG=1" })

        #expect(!supervisor.arrives(within: 1_000), "the main queue is blocked for 2.5 intervals: no ping")

        run.process.writeLine("release")
        #expect(supervisor.nextBlocking() == "WATCHDOG=1", "the main queue runs again: so do the pings")
        #expect(run.process.waitForLine("unblocked"))
        run.process.send(SIGTERM)
        var message = supervisor.nextBlocking()
        while message == "WATCHDOG=1" { message = supervisor.nextBlocking() }  // pings until the signal
        #expect(message == "STOPPING=1\nSTATUS=shutting down: received SIGTERM")
        #expect(run.process.waitForExit() == 0)
        print("watchdog: mean gap \(meanGap) between 5 pings; \(sentBeforeTheBlock.count) queued at the block")
    }

    @Test func aRealSIGHUP_reloadsTheServices_betweenReloadingAndReady() throws {
        let supervisor = try NotificationSocket(.path)
        let run = try FixtureRun(mode: "clean", environment: supervisor.environment)
        #expect(supervisor.nextBlocking() == "READY=1\nSTATUS=running")
        try #require(run.process.waitForLine("ready"))

        run.process.send(SIGHUP)

        #expect(supervisor.nextBlocking()?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
        #expect(supervisor.nextBlocking() == "READY=1\nSTATUS=running")
        // The lines come through the output pipe, read by a thread of ChildProcess's: written before
        // the datagram was sent, but maybe not read yet when it arrives.
        #expect(run.process.waitForLine("event announcer didReceiveReloadRequest"))
        #expect(
            run.said(afterReady: true) == [
                "event database didReceiveReloadRequest", "event announcer didReceiveReloadRequest",
            ])
        run.process.send(SIGTERM)
        #expect(supervisor.nextBlocking() == "STOPPING=1\nSTATUS=shutting down: received SIGTERM")
        #expect(run.process.waitForExit() == 0)
        #expect(
            run.loggedEvents == [
                "fixture clean", "didFinishLaunching", "didBecomeActive", "didReceiveReloadRequest", "willTerminate",
            ])
    }

    @Test func twoSIGHUPsWhileTheMainQueueIsBlocked_areReloads_neverAForcedExit() throws {
        let supervisor = try NotificationSocket(.abstract)
        let run = try FixtureRun(mode: "main-queue-control", environment: supervisor.environment, takesInput: true)
        #expect(supervisor.nextBlocking() == "READY=1\nSTATUS=running")
        run.process.writeLine("block")
        try #require(run.process.waitForLine("blocked"))

        // Both wait in the signal pipe: the second would force the exit (129) if SIGHUP counted as
        // a shutdown signal. The second is sent once the first was delivered, or the kernel could
        // merge them into one.
        run.process.send(SIGHUP)
        try #require(ProcessSignalMasks.waitUntilDelivered(SIGHUP, to: run.process.pid))
        run.process.send(SIGHUP)
        try #require(ProcessSignalMasks.waitUntilDelivered(SIGHUP, to: run.process.pid))
        run.process.writeLine("release")

        for _ in 0..<2 {  // one reload for each signal
            #expect(supervisor.nextBlocking()?.hasPrefix("RELOADING=1\n") == true)
            #expect(supervisor.nextBlocking() == "READY=1\nSTATUS=running")
        }
        run.process.send(SIGTERM)
        #expect(supervisor.nextBlocking() == "STOPPING=1\nSTATUS=shutting down: received SIGTERM")
        #expect(run.process.waitForExit() == 0)
    }
}
#endif
