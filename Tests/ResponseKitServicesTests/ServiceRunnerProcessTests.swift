import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runner in a real process: `ServiceRunnerFixture` runs three services (analytics,
/// database, announcer) under `ServiceRunner`, says each call on standard output, and writes
/// analytics events to a log file. Each test waits for `ready`, signals, and checks the output,
/// the log and the exit status. In `child-process` mode a fourth service, `spawner`, starts
/// `/bin/sleep 300` with Foundation's `Process`, whose signal masks the tests read in `/proc`.
///
/// Serialized: one child at a time, so that the tests' blocking waits tie up at most one of
/// Swift Testing's threads and the children do not compete for a small machine's cores.
@Suite(.serialized)
struct ServiceRunnerProcessTests {
    /// Everything the fixture says after `ready` when shutdown goes as planned.
    static let gracefulShutdown = [
        "event database willTerminate", "event announcer willTerminate",
        "stop announcer", "stop database",
    ]

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalStopsTheServicesGracefully_andExitsWithStatusZero(signal: Int32) throws {
        let run = try FixtureRun(mode: "clean")
        try #require(run.process.waitForLine("ready"))

        run.process.send(signal)

        #expect(run.process.waitForExit() == 0)
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(run.said(afterReady: true) == Self.gracefulShutdown)
        #expect(run.process.lines.contains("ServiceRunner: received \(name); shutting down"))
        #expect(run.process.lines.last == "ServiceRunner: shutdown clean; exiting with status 0")
        #expect(run.loggedEvents == ["fixture clean", "didFinishLaunching", "didBecomeActive", "willTerminate"])
    }

    @Test func startsTheServicesInOrder_andAnnouncesLaunchBeforeReady() throws {
        let run = try FixtureRun(mode: "clean")
        try #require(run.process.waitForLine("ready"))

        #expect(
            run.said(afterReady: false) == [
                "start database", "start announcer",
                "event database didFinishLaunching", "event announcer didFinishLaunching",
                "event database didBecomeActive", "event announcer didBecomeActive",
            ])
        run.process.send(SIGTERM)
        #expect(run.process.waitForExit() == 0)
    }

    @Test func exitsWithStatusOne_whenAServiceFailsToStop() throws {
        let run = try FixtureRun(mode: "failing-stop")
        try #require(run.process.waitForLine("ready"))

        run.process.send(SIGTERM)

        #expect(run.process.waitForExit() == 1)
        #expect(run.said(afterReady: true) == Self.gracefulShutdown)
        let report = "ResponseKitServices: database failed to stop: the fixture was told to fail"
        #expect(run.process.lines.contains(report))
    }

    @Test func exitsWithStatusOne_whenAServiceDoesNotStopInTime() throws {
        let run = try FixtureRun(mode: "hanging-stop")
        try #require(run.process.waitForLine("ready"))

        run.process.send(SIGTERM)

        #expect(run.process.waitForExit() == 1)
        #expect(run.process.lines.contains("ResponseKitServices: database did not stop within 0.2 seconds"))
    }

    @Test func aSecondSignalDuringShutdown_forcesTheExit_withStatus128PlusTheSignal() throws {
        let run = try FixtureRun(mode: "stuck-stop")
        try #require(run.process.waitForLine("ready"))
        run.process.send(SIGTERM)
        try #require(run.process.waitForLine("stop database"))

        run.process.send(SIGINT)

        #expect(run.process.waitForExit() == 128 + SIGINT)
        #expect(run.process.lines.last == "ServiceRunner: received SIGINT during shutdown; exiting now with status 130")
        // Analytics was never stopped; its events reached the file because willTerminate flushed them.
        #expect(run.loggedEvents == ["fixture stuck-stop", "didFinishLaunching", "didBecomeActive", "willTerminate"])
    }

    @Test func aSecondSignal_endsTheProcess_evenWhenTheMainThreadIsStuck() throws {
        let run = try FixtureRun(mode: "stuck-main")
        // The main thread sent itself SIGTERM, then blocked for good: the runner never reads it.
        try #require(run.process.waitForLine("stuck"))

        run.process.send(SIGINT)

        #expect(run.process.waitForExit() == 128 + SIGINT)
        #expect(
            run.process.lines.last
                == "ServiceRunner: received SIGINT while the main queue was still busy with the previous signal; "
                + "exiting now with status 130")
    }

    // MARK: - Exit status after a failed start

    @Test(arguments: [SIGTERM, SIGINT])
    func exitsWithStatusOne_whenAServiceFailedToStart(signal: Int32) throws {
        let run = try FixtureRun(mode: "failing-start")
        try #require(run.process.waitForLine("ready"))

        run.process.send(signal)

        #expect(run.process.waitForExit() == 1)
        #expect(
            run.process.lines.contains("ResponseKitServices: database failed to start: the fixture was told to fail"))
        let last = run.process.lines.last ?? ""
        #expect(last.hasPrefix("ServiceRunner: shutdown not clean (database failed to start"), "\(last)")
        #expect(last.hasSuffix("exiting with status 1"), "\(last)")
    }

    // MARK: - Child processes of services

    #if os(Linux)
    @Test func aServicesChildProcess_blocksAndIgnoresNeitherSIGINTNorSIGTERM_andEndsOnSIGTERM() throws {
        let run = try FixtureRun(mode: "child-process")
        try #require(run.process.waitForLine("ready"))
        let child = try #require(run.childID)
        let masks = try #require(ProcessSignalMasks(pid: child))

        let terminationSignals = ProcessSignalMasks.bit(SIGINT) | ProcessSignalMasks.bit(SIGTERM)
        #expect(masks.blocked & terminationSignals == 0, "SigBlk \(String(masks.blocked, radix: 16))")
        #expect(masks.ignored & terminationSignals == 0, "SigIgn \(String(masks.ignored, radix: 16))")

        kill(child, SIGTERM)

        #expect(run.process.waitForLine("child exited signal \(SIGTERM)"))
        run.process.send(SIGTERM)
        #expect(run.process.waitForExit() == 0)
    }
    #endif

    @Test func aGracefulShutdown_letsAServiceEndItsChildProcessWithSIGTERM() throws {
        let run = try FixtureRun(mode: "child-process")
        try #require(run.process.waitForLine("ready"))
        try #require(run.childID != nil)

        run.process.send(SIGTERM)

        #expect(run.process.waitForExit() == 0)
        #expect(
            run.said(afterReady: true) == [
                "event database willTerminate", "event announcer willTerminate",
                "stop announcer", "stop spawner", "child exited signal \(SIGTERM)", "stop database",
            ])
        #expect(run.process.lines.last == "ServiceRunner: shutdown clean; exiting with status 0")
    }
}

/// One run of the fixture, with its own analytics log file.
final class FixtureRun {
    let process: TestProcess
    let logFile: URL

    /// Starts the fixture in `mode`, with `environment` added to this process's (systemd's
    /// variables left out), reading standard input from the test when it `takesInput`.
    ///
    /// Memory pressure is not watched (`MEMORY_PRESSURE_WATCH=/dev/null`) unless `environment`
    /// says otherwise: a warning from the machine's real pressure would add an event to what the
    /// tests expect the services to say.
    init(mode: String, environment: [String: String] = [:], takesInput: Bool = false) throws {
        logFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("ServiceRunnerFixture-\(UUID().uuidString).log")
        let variables = ["MEMORY_PRESSURE_WATCH": "/dev/null"].merging(environment) { _, given in given }
        process = try TestProcess(
            try FixtureBinary.url(), arguments: [mode, logFile.path], environment: variables, takesInput: takesInput)
    }

    deinit {
        try? FileManager.default.removeItem(at: logFile)
        // A child that a broken runner left running (SIGTERM did not end it) must not outlive the test.
        if let childID, !process.lines.contains(where: { $0.hasPrefix("child exited") }) {
            kill(childID, SIGKILL)
        }
    }

    /// The process id of the child that the fixture's `spawner` service started, once it said so.
    var childID: pid_t? {
        process.lines.lazy.compactMap { line in
            line.hasPrefix("child ") ? pid_t(line.dropFirst("child ".count)) : nil
        }.first
    }

    /// What the fixture's services said (runner log lines left out), after or before `ready`.
    func said(afterReady: Bool) -> [String] {
        let lines = process.lines.filter { !$0.hasPrefix("ServiceRunner:") && !$0.hasPrefix("ResponseKitServices:") }
        guard let ready = lines.firstIndex(of: "ready") else { return [] }
        return Array(afterReady ? lines[(ready + 1)...] : lines[..<ready])
    }

    /// The event names in the analytics log, in order.
    var loggedEvents: [String] {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { $0.split(separator: "\t").last.map(String.init) }
    }
}
