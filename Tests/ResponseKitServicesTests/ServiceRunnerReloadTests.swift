import ResponseKit
import Testing

@testable import ResponseKitServices

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// Reloading, in this process: SIGHUP is handed to the runner directly, scripted services answer
/// the reload request when the test says, and a real datagram socket plays systemd's part.
/// ServiceRunnerSystemdProcessTests sends a real SIGHUP to a runner process.
@MainActor
struct ServiceRunnerReloadTests {
    static let reload = LifecycleEvent.didReceiveReloadRequest.name

    let bed = ServiceTestBed()
    let exited = Response<Int32>.pending()
    let logged = LogLines()
    let supervisor: NotificationSocket

    init() throws {
        supervisor = try NotificationSocket(.abstract)
    }

    /// A runner whose services have all started, its readiness already read from the socket.
    func makeLaunchedRunner() async throws -> ServiceRunner {
        let resolver = exited.resolver
        let runner = ServiceRunner(
            manager: bed.manager,
            signals: [SIGTERM],
            reloadSignals: [SIGHUP],
            log: { [logged] line in logged.lines.append(line) },
            environment: supervisor.environment,
            exit: { status in resolver.succeed(status) }
        )
        runner.launch()
        #expect(await supervisor.next() == "READY=1\nSTATUS=running")
        return runner
    }

    /// The assignments of `message` but `MONOTONIC_USEC=`, which must lie between `earliest` and
    /// `latest` (`CLOCK_MONOTONIC` microseconds).
    func assignments(of message: String?, stampedBetween earliest: UInt64, and latest: UInt64) -> [String] {
        let lines = (message ?? "").split(separator: "\n").map(String.init)
        let stamp = lines.first { $0.hasPrefix("MONOTONIC_USEC=") }.flatMap { UInt64($0.dropFirst(15)) }
        #expect(stamp.map { (earliest...latest).contains($0) } == true, "\(lines) not within \(earliest)...\(latest)")
        return lines.filter { !$0.hasPrefix("MONOTONIC_USEC=") }
    }

    // MARK: - Reloading

    @Test func aReloadSignal_asksTheRunningServicesToReload_betweenReloadingAndReady() async throws {
        let first = try bed.service("a")
        try bed.service("b")
        let runner = try await makeLaunchedRunner()
        let before = SystemdNotifier.monotonicMicroseconds()

        runner.handleSignal(SIGHUP)

        let reloading = await supervisor.next()
        let after = SystemdNotifier.monotonicMicroseconds()
        #expect(assignments(of: reloading, stampedBetween: before, and: after) == ["RELOADING=1", "STATUS=reloading"])
        #expect(await supervisor.next() == "READY=1\nSTATUS=running")
        _ = await outcome(of: first.called(Self.reload))
        #expect(
            bed.journal.lines.suffix(2) == ["a handles didReceiveReloadRequest", "b handles didReceiveReloadRequest"])
        #expect(logged.lines.suffix(2) == ["received SIGHUP; reloading", "reloaded"])
        #expect(!exited.response.isDone)
    }

    @Test func readyComesOnlyOnceTheSlowestServiceHasReloaded() async throws {
        try bed.service("a")
        let slow = try bed.service("slow")
        let runner = try await makeLaunchedRunner()
        slow.eventAnswer = .hold

        runner.requestReload()
        _ = await outcome(of: slow.called(Self.reload))

        #expect(await supervisor.next()?.hasPrefix("RELOADING=1\n") == true)
        #expect(supervisor.queued() == [], "a has reloaded, slow has not")
        slow.held[Self.reload]?.succeed()
        #expect(await supervisor.next() == "READY=1\nSTATUS=running")
        #expect(runner.state.phase == .running)
    }

    @Test func aServiceThatFailsToReload_isReported_andTheAppKeepsRunning_andExitsCleanly() async throws {
        let failing = try bed.service("a")
        let runner = try await makeLaunchedRunner()
        failing.eventAnswer = .fail

        runner.handleSignal(SIGHUP)

        #expect(await supervisor.next()?.hasPrefix("RELOADING=1\n") == true)
        #expect(
            await supervisor.next()
                == "READY=1\nSTATUS=running; reload failed: a failed to handle didReceiveReloadRequest: scripted failure"
        )
        #expect(bed.reportedDescriptions == ["a failed to handle didReceiveReloadRequest: scripted failure"])
        failing.eventAnswer = .succeed
        runner.handleSignal(SIGTERM)
        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        #expect(bed.journal.lines.last == "stop a", "a failed reload keeps the service running")
    }

    @Test func aServiceThatDoesNotAnswerTheReload_isGivenUpOnAtTheReloadLimit() async throws {
        let stuck = try bed.service("a")
        let runner = try await makeLaunchedRunner()
        stuck.eventAnswer = .hold

        runner.handleSignal(SIGHUP)
        _ = await outcome(of: stuck.called(Self.reload))
        #expect(bed.timer.runningDurations == [ServiceTestBed.timeouts.reload])
        bed.timer.fireAll()

        #expect(await supervisor.next()?.hasPrefix("RELOADING=1\n") == true)
        #expect(
            await supervisor.next()
                == "READY=1\nSTATUS=running; reload failed: a did not handle didReceiveReloadRequest within 4.0 seconds"
        )
    }

    @Test func requestsDuringAReload_areServedByOneMoreReloadAfterIt() async throws {
        let slow = try bed.service("a")
        let runner = try await makeLaunchedRunner()
        slow.eventAnswer = .hold
        runner.handleSignal(SIGHUP)
        _ = await outcome(of: slow.called(Self.reload))

        runner.handleSignal(SIGHUP)
        runner.requestReload()
        slow.eventAnswer = .succeed
        slow.held[Self.reload]?.succeed()

        #expect(await supervisor.next()?.hasPrefix("RELOADING=1\n") == true)
        #expect(await supervisor.next() == "READY=1\nSTATUS=running")
        #expect(await supervisor.next()?.hasPrefix("RELOADING=1\n") == true)
        #expect(await supervisor.next() == "READY=1\nSTATUS=running")
        #expect(bed.journal.lines.filter { $0 == "a handles didReceiveReloadRequest" }.count == 2)
        #expect(logged.lines.contains("received SIGHUP during a reload; reloading once more after it"))
    }

    @Test func aReloadRequestWhileStarting_isIgnored() async throws {
        let slow = try bed.service("a", start: .hold)
        let resolver = exited.resolver
        let runner = ServiceRunner(
            manager: bed.manager, signals: [], reloadSignals: [SIGHUP],
            log: { [logged] line in logged.lines.append(line) },
            environment: supervisor.environment, exit: { resolver.succeed($0) })
        runner.launch()

        runner.handleSignal(SIGHUP)
        slow.held["start"]?.succeed()

        #expect(await supervisor.next() == "READY=1\nSTATUS=running")
        #expect(!bed.journal.lines.contains("a handles didReceiveReloadRequest"))
        #expect(logged.lines.contains { $0.hasPrefix("received SIGHUP while starting; not reloading") })
    }

    @Test func aReloadDuringShutdown_isIgnored_andAShutdownDuringAReload_winsOverIt() async throws {
        let service = try bed.service("a")
        let runner = try await makeLaunchedRunner()
        service.eventAnswer = .hold
        runner.requestReload()
        _ = await outcome(of: service.called(Self.reload))

        runner.handleSignal(SIGTERM)
        runner.handleSignal(SIGHUP)
        service.held[Self.reload]?.succeed()
        service.held["willTerminate"]?.succeed()

        #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        #expect(logged.lines.contains("received SIGHUP during shutdown; not reloading"))
        let sent = supervisor.queued()
        #expect(sent.count == 2 && sent.last == "STOPPING=1\nSTATUS=shutting down: received SIGTERM", "\(sent)")
    }
}
#endif
