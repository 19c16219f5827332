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
/// the log and the exit status.
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
}

/// One run of the fixture, with its own analytics log file.
private final class FixtureRun {
    let process: ChildProcess
    let logFile: URL

    init(mode: String) throws {
        logFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("ServiceRunnerFixture-\(UUID().uuidString).log")
        process = try ChildProcess(try FixtureBinary.url(), arguments: [mode, logFile.path])
    }

    deinit {
        try? FileManager.default.removeItem(at: logFile)
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
