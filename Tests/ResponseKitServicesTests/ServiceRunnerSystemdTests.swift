import ResponseKit
import Testing

@testable import ResponseKitServices

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// What a supervisor hears from the runner, in this process: a real datagram socket plays
/// systemd's part (its name given to the runner as `NOTIFY_SOCKET` in an environment of the
/// test's own), scripted services answer when the test says, and `exit` is recorded.
/// ServiceRunnerSystemdProcessTests checks the watchdog and a real exit in a child process.
@MainActor
struct ServiceRunnerSystemdTests {
    let bed = ServiceTestBed()
    let exited = Response<Int32>.pending()
    let logged = LogLines()

    func makeRunner(
        environment: [String: String],
        startFailurePolicy: ServiceRunner.StartFailurePolicy = .keepRunning
    ) -> ServiceRunner {
        let resolver = exited.resolver
        return ServiceRunner(
            manager: bed.manager,
            signals: [],
            startFailurePolicy: startFailurePolicy,
            log: { [logged] line in logged.lines.append(line) },
            environment: environment,
            exit: { status in resolver.succeed(status) }
        )
    }

    // MARK: - Readiness

    @Test(arguments: [NotificationSocket.Kind.path, .abstract])
    func readyIsSent_onlyOnceTheSlowestServiceHasStarted(kind: NotificationSocket.Kind) async throws {
        let supervisor = try NotificationSocket(kind)
        try bed.service("a")
        let slow = try bed.service("slow", start: .hold)
        let last = try bed.service("c")
        let runner = makeRunner(environment: supervisor.environment)

        runner.launch()
        _ = await outcome(of: slow.called("start"))
        #expect(supervisor.queued() == [], "a has started, slow has not: not ready")

        slow.held["start"]?.succeed()

        #expect(await supervisor.next() == "READY=1\nSTATUS=running")
        #expect(bed.journal.lines.prefix(3) == ["start a", "start slow", "start c"])
        _ = await outcome(of: last.called("didBecomeActive"))
        #expect(logged.lines.first == "notifying systemd at \(supervisor.name)")
    }

    @Test func readyNamesTheServicesThatFailedToStart_andTheAppKeepsRunning() async throws {
        let supervisor = try NotificationSocket(.abstract)
        try bed.service("a", start: .fail)
        let healthy = try bed.service("b")
        let runner = makeRunner(environment: supervisor.environment)

        runner.launch()

        #expect(
            await supervisor.next()
                == "READY=1\nSTATUS=running without some services: a failed to start: scripted failure")
        _ = await outcome(of: healthy.called("didBecomeActive"))
        #expect(!exited.response.isDone)
    }

    @Test func aServiceRegisteredAfterLaunchThatFailsToStart_isReportedAtOnce() async throws {
        let supervisor = try NotificationSocket(.path)
        try bed.service("a")
        let runner = makeRunner(environment: supervisor.environment)
        runner.launch()
        #expect(await supervisor.next() == "READY=1\nSTATUS=running")

        try bed.service("late", start: .fail)

        #expect(
            await supervisor.next() == "STATUS=running without some services: late failed to start: scripted failure")
        #expect(!exited.response.isDone)
    }

    // MARK: - Stopping

    @Test func theFirstSignalSendsStopping_andTheSecondSendsNothingMore() async throws {
        let supervisor = try NotificationSocket(.path)
        let stuck = try bed.service("a", stop: .hold)
        let runner = makeRunner(environment: supervisor.environment)
        runner.launch()
        #expect(await supervisor.next() == "READY=1\nSTATUS=running")

        runner.handleSignal(SIGTERM)

        #expect(await supervisor.next() == "STOPPING=1\nSTATUS=shutting down: received SIGTERM")
        _ = await outcome(of: stuck.called("stop"))
        runner.handleSignal(SIGINT)
        #expect(try await outcome(of: exited.response).get() == 128 + SIGINT)
        #expect(supervisor.queued() == [])
    }

    @Test func aSignalDuringLaunch_sendsStoppingAndNeverReady() async throws {
        let supervisor = try NotificationSocket(.abstract)
        let slow = try bed.service("a", start: .hold)
        let runner = makeRunner(environment: supervisor.environment)
        runner.launch()

        runner.handleSignal(SIGTERM)
        slow.held["start"]?.succeed()

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        #expect(supervisor.queued() == ["STOPPING=1\nSTATUS=shutting down: received SIGTERM"])
    }

    @Test func nothingIsSent_withoutNotifySocket() async throws {
        let supervisor = try NotificationSocket(.path)  // bound, but not named to the runner
        let service = try bed.service("a")
        let runner = makeRunner(environment: ["WATCHDOG_USEC": "1000"])
        runner.launch()
        _ = await outcome(of: service.called("didBecomeActive"))

        runner.handleSignal(SIGTERM)

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        #expect(runner.notifier == nil && runner.watchdog == nil)
        #expect(supervisor.queued() == [])
        #expect(!logged.lines.contains { $0.contains("systemd") })
    }

    @Test func aNotifySocketThatIsNoSocketName_isLogged_andTheAppRunsOn() async throws {
        let service = try bed.service("a")
        let runner = makeRunner(environment: ["NOTIFY_SOCKET": "vsock:2:1234"])

        runner.launch()
        _ = await outcome(of: service.called("didBecomeActive"))

        #expect(runner.notifier == nil)
        #expect(
            logged.lines.first
                == "not notifying systemd: NOTIFY_SOCKET=vsock:2:1234 is neither an absolute path nor an abstract name (@…)"
        )
    }

    @Test func aSupervisorThatIsGone_isLoggedOnce() async throws {
        var supervisor: NotificationSocket? = try NotificationSocket(.path)
        let environment = supervisor!.environment
        let service = try bed.service("a")
        let runner = makeRunner(environment: environment)
        runner.launch()
        _ = await outcome(of: service.called("didBecomeActive"))
        supervisor = nil  // closed and unlinked

        runner.notifySupervisor(["STATUS=one"])
        runner.notifySupervisor(["STATUS=two"])

        let failures = logged.lines.filter { $0.hasPrefix("could not tell") }
        #expect(failures.count == 1)
        #expect(failures.first?.hasSuffix("(later failures are not logged)") == true, "\(failures)")
    }

    // MARK: - Start-failure policy

    @Test func underTheShutDownPolicy_aFailedStartShutsDownAtOnce_withTheUncleanStatus() async throws {
        let supervisor = try NotificationSocket(.path)
        try bed.service("a")
        try bed.service("b", start: .fail)
        try bed.service("c")
        let runner = makeRunner(environment: supervisor.environment, startFailurePolicy: .shutDown)

        runner.launch()

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(
            bed.journal.lines == ["start a", "start b", "a handles willTerminate", "stop a"],
            "c was waiting: never started; no launch events")
        #expect(supervisor.queued() == ["STOPPING=1\nSTATUS=shutting down: b failed to start: scripted failure"])
        #expect(bed.reportedDescriptions.contains("c was not started: the manager began stopping first"))
    }

    @Test func underTheShutDownPolicy_aServiceRegisteredAfterLaunchThatFailsToStart_shutsDown() async throws {
        let supervisor = try NotificationSocket(.abstract)
        try bed.service("a")
        let runner = makeRunner(environment: supervisor.environment, startFailurePolicy: .shutDown)
        runner.launch()
        #expect(await supervisor.next() == "READY=1\nSTATUS=running")

        try bed.service("late", start: .fail)

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(bed.journal.lines.suffix(2) == ["a handles willTerminate", "stop a"])
        #expect(supervisor.queued() == ["STOPPING=1\nSTATUS=shutting down: late failed to start: scripted failure"])
    }

    @Test func underTheShutDownPolicy_aStartThatFailsDuringTheShutdown_forcesNothing() async throws {
        let slow = try bed.service("a", start: .hold)
        let runner = makeRunner(environment: [:], startFailurePolicy: .shutDown)
        runner.launch()

        runner.handleSignal(SIGTERM)
        slow.held["start"]?.fail(TestError())

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.uncleanExitStatus)
        #expect(!logged.lines.contains { $0.contains("exiting now") }, "no forced exit: \(logged.lines)")
    }

    @Test func theDefaultPolicy_keepsRunning() {
        let runner = ServiceRunner(manager: bed.manager)
        #expect(runner.startFailurePolicy == .keepRunning)
        #expect("\(ServiceRunner.StartFailurePolicy.shutDown)" == "shutDown")
    }
}
#endif
