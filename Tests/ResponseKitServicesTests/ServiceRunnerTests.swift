import ResponseKit
import Testing

@testable import ResponseKitServices

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runner's decisions, in this process: signals are handed to it directly and `exit` is
/// recorded. ServiceRunnerProcessTests checks real signals and real exits in a child process.
@MainActor
struct ServiceRunnerTests {
    let bed = ServiceTestBed()
    let exited = Response<Int32>.pending()
    let logged = LogLines()

    func makeRunner() -> ServiceRunner {
        let resolver = exited.resolver
        return ServiceRunner(
            manager: bed.manager,
            signals: [],
            log: { [logged] line in logged.lines.append(line) },
            exit: { status in resolver.succeed(status) }
        )
    }

    // MARK: - Launch

    @Test func launchStartsTheServices_thenAnnouncesLaunchAndActivation() async throws {
        try bed.service("a")
        let last = try bed.service("b")
        let runner = makeRunner()

        runner.launch()
        _ = await outcome(of: last.called("didBecomeActive"))

        #expect(
            bed.journal.lines == [
                "start a", "start b",
                "a handles didFinishLaunching", "b handles didFinishLaunching",
                "a handles didBecomeActive", "b handles didBecomeActive",
            ])
        #expect(!exited.response.isDone)
    }

    @Test func launchRunsWithoutAServiceThatFailedToStart() async throws {
        try bed.service("a", start: .fail)
        let healthy = try bed.service("b")
        let runner = makeRunner()

        runner.launch()
        _ = await outcome(of: healthy.called("didBecomeActive"))

        #expect(!bed.journal.lines.contains("a handles didBecomeActive"))
        #expect(logged.lines.contains { $0.hasPrefix("running without some services") })
    }

    // MARK: - Shutdown

    @Test func aSignalSendsWillTerminate_thenStopsInReverse_andExitsCleanly() async throws {
        try bed.service("a")
        let last = try bed.service("b")
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: last.called("didBecomeActive"))

        runner.handleSignal(SIGTERM)

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        #expect(
            bed.journal.lines(after: "b handles didBecomeActive") == [
                "a handles willTerminate", "b handles willTerminate", "stop b", "stop a",
            ])
        #expect(logged.lines.contains("received SIGTERM; shutting down"))
        #expect(logged.lines.last == "shutdown clean; exiting with status 0")
    }

    @Test func exitsWithTheUncleanStatus_whenAServiceFailsToStop() async throws {
        try bed.service("a", stop: .fail)
        let last = try bed.service("b")
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: last.called("didBecomeActive"))

        runner.handleSignal(SIGINT)

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(bed.journal.lines.last == "stop a")
    }

    @Test func exitsWithTheUncleanStatus_whenAServiceFailsToHandleWillTerminate() async throws {
        let failing = try bed.service("a", event: .succeed)
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: failing.called("didBecomeActive"))
        failing.eventAnswer = .fail

        runner.handleSignal(SIGTERM)

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(bed.journal.lines.last == "stop a", "a failed event still lets the service stop")
    }

    // MARK: - Exit status after a failed start

    @Test func exitsWithTheUncleanStatus_whenAServiceFailedToStart() async throws {
        try bed.service("a", start: .fail)
        let healthy = try bed.service("b")
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: healthy.called("didBecomeActive"))

        runner.handleSignal(SIGINT)

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(bed.journal.lines.suffix(2) == ["b handles willTerminate", "stop b"])
        #expect(
            logged.lines.last
                == "shutdown not clean (a failed to start: scripted failure); exiting with status 1")
    }

    @Test func exitsWithTheUncleanStatus_whenAServiceRegisteredAfterLaunchFailedToStart() async throws {
        let healthy = try bed.service("a")
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: healthy.called("didBecomeActive"))
        try bed.service("late", start: .fail)
        _ = await outcome(of: bed.registrations["late"]!)

        runner.handleSignal(SIGTERM)

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(logged.lines.last?.contains("late failed to start: scripted failure") == true)
    }

    @Test func exitsWithTheUncleanStatus_whenAStartInFlightFailsDuringTheShutdown() async throws {
        let slow = try bed.service("a", start: .hold)
        let runner = makeRunner()
        runner.launch()

        runner.handleSignal(SIGTERM)
        slow.held["start"]?.fail(TestError())

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(bed.journal.lines == ["start a"], "a failed to start: nothing to stop")
    }

    // MARK: - Forced exit

    @Test func aSecondSignalDuringShutdown_forcesTheExit_withStatus128PlusTheSignal() async throws {
        let stuck = try bed.service("a", stop: .hold)
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: stuck.called("didBecomeActive"))

        runner.handleSignal(SIGTERM)
        _ = await outcome(of: stuck.called("stop"))
        #expect(!exited.response.isDone, "the stop has not answered: the runner still waits")

        runner.handleSignal(SIGINT)

        #expect(try await outcome(of: exited.response).get() == 128 + SIGINT)
        #expect(logged.lines.last == "received SIGINT during shutdown; exiting now with status 130")
    }

    @Test func requestShutdown_shutsDownLikeASignal() async throws {
        let service = try bed.service("a")
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: service.called("didBecomeActive"))

        runner.requestShutdown()

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        #expect(bed.journal.lines.suffix(2) == ["a handles willTerminate", "stop a"])
    }

    @Test func aSignalDuringStart_stopsWhatStarted_withoutAnnouncingLaunch() async throws {
        let slow = try bed.service("a", start: .hold)
        try bed.service("b")
        let runner = makeRunner()
        runner.launch()

        runner.handleSignal(SIGTERM)
        slow.held["start"]?.succeed()

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        #expect(bed.journal.lines == ["start a", "stop a"], "b was never started; no launch events")
    }

    @Test func aSignalBeforeLaunch_exitsWithoutStartingAnything() async throws {
        try bed.service("a")
        let runner = makeRunner()

        runner.handleSignal(SIGTERM)  // as a shutdown the app requests before `run()` launches
        runner.launch()  // too late: nothing starts

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        #expect(bed.journal.lines.isEmpty)
    }

    @Test func aServiceWaitingToStartWhenASignalArrives_isNeverStarted() async throws {
        let telling = try bed.service("x", event: .hold)  // x takes its time over willTerminate
        let slow = try bed.service("a", start: .hold)
        try bed.service("b")
        let runner = makeRunner()
        runner.launch()

        runner.handleSignal(SIGTERM)
        _ = await outcome(of: telling.called("willTerminate"))
        slow.held["start"]?.succeed()  // a answers its start during the shutdown
        _ = await outcome(of: bed.registrations["a"]!)
        telling.held["willTerminate"]?.succeed()

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        #expect(
            bed.journal.lines == ["start x", "start a", "x handles willTerminate", "stop a", "stop x"],
            "b was waiting when the signal came: nothing starts during a shutdown")
        #expect(bed.reportedDescriptions == ["b was not started: the manager began stopping first"])
    }

    @Test func aServiceStuckOnWillTerminate_isGivenUpOn_stillStopped_andTheExitIsUnclean() async throws {
        let stuck = try bed.service("a")
        try bed.service("b")
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: stuck.called("didBecomeActive"))
        stuck.eventAnswer = .hold

        runner.handleSignal(SIGTERM)
        _ = await outcome(of: stuck.called("willTerminate"))
        #expect(bed.timer.runningDurations == [ServiceTestBed.timeouts.event])
        bed.timer.fireAll()

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(bed.journal.lines.suffix(2) == ["stop b", "stop a"])
        #expect(bed.reportedDescriptions == ["a did not handle willTerminate within 2.0 seconds"])
        #expect(logged.lines.last?.contains("a did not handle willTerminate within 2.0 seconds") == true)
    }

    @Test func aServiceStuckOnStop_isGivenUpOn_andTheExitIsUnclean() async throws {
        try bed.service("a")
        let stuck = try bed.service("b", stop: .hold)
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: stuck.called("didBecomeActive"))

        runner.requestShutdown()
        _ = await outcome(of: stuck.called("stop"))
        bed.timer.fireAll()

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(bed.journal.lines.suffix(2) == ["stop b", "stop a"])
        #expect(logged.lines.last?.contains("b did not stop within 1.0 seconds") == true)
    }

    @Test func aSecondShutdownRequest_forcesTheExit_withTheUncleanStatus() async throws {
        let stuck = try bed.service("a", stop: .hold)
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: stuck.called("didBecomeActive"))

        runner.requestShutdown()
        _ = await outcome(of: stuck.called("stop"))
        runner.requestShutdown()

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(logged.lines.last == "shutdown requested during shutdown; exiting now with status 1")
    }

    @Test func aSignalAfterTheExit_changesNothing() async throws {
        let service = try bed.service("a")
        let runner = makeRunner()
        runner.launch()
        _ = await outcome(of: service.called("didBecomeActive"))
        runner.handleSignal(SIGTERM)
        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        let linesAtExit = logged.lines

        runner.handleSignal(SIGINT)

        #expect(logged.lines == linesAtExit)
        #expect(bed.journal.lines.filter { $0 == "stop a" }.count == 1)
    }

    @Test func namesSignals() {
        #expect(ServiceRunner.name(of: SIGINT) == "SIGINT")
        #expect(ServiceRunner.name(of: SIGTERM) == "SIGTERM")
        #expect(ServiceRunner.name(of: 64) == "signal 64")
    }
}

/// The runner's log lines, in order.
@MainActor
final class LogLines {
    var lines: [String] = []
}
