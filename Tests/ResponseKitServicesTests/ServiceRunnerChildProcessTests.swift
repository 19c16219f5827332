import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// No child outlives a real runner process: `ServiceRunnerFixture` in `forgotten-children` mode
/// runs a service that starts two `/bin/sleep 300` with `ChildProcess` from a Dispatch worker, one
/// owned by the service and one by no one, and forgets both. The test watches each child through
/// a pidfd of its own (the children are the fixture's, not the test's) and ends the runner: a
/// signal, a forced exit, or SIGKILL.
///
/// Nested in ServiceRunnerProcessTests, whose `.serialized` covers it too: one runner at a time.
extension ServiceRunnerProcessTests {
    @Suite struct Children {}
}

extension ServiceRunnerProcessTests.Children {
    @Test func childrenStartedFromADispatchWorker_blockNoSignal_andIgnoreNone() throws {
        let run = try FixtureRun(mode: "forgotten-children")
        try #require(run.process.waitForLine("ready"))

        for child in [try #require(run.child("owned")), try #require(run.child("unowned"))] {
            let masks = try #require(ProcessSignalMasks(pid: child))
            #expect(masks.blocked == 0, "SigBlk: \(String(masks.blocked, radix: 16))")
            #expect(masks.ignored == 0, "SigIgn: \(String(masks.ignored, radix: 16))")
        }
        run.process.send(SIGTERM)
        #expect(run.process.waitForExit() == 0)
    }

    @Test func aSignal_endsTheForgottenChildren_theOwnedOneWhenItsServiceStops_theOtherBeforeTheExit() throws {
        let run = try FixtureRun(mode: "forgotten-children")
        try #require(run.process.waitForLine("ready"))
        let owned = try #require(run.child("owned").flatMap(ProcessEndWatch.init(pid:)))
        let unowned = try #require(run.child("unowned").flatMap(ProcessEndWatch.init(pid:)))

        run.process.send(SIGTERM)

        #expect(run.process.waitForExit() == 0)
        #expect(owned.waitForEnd())
        #expect(unowned.waitForEnd())
        #expect(
            run.said(afterReady: true) == [
                "event database willTerminate", "event announcer willTerminate",
                "stop announcer", "stop spawner", "owned child killed by SIGTERM", "stop database",
                "unowned child killed by SIGTERM",
            ])
        let ending = "ServiceRunner: ending the child processes left running: \(unowned.pid) (/bin/sleep)"
        #expect(run.process.lines.contains(ending))
        #expect(run.process.lines.last == "ServiceRunner: shutdown clean; exiting with status 0")
    }

    @Test func aForcedExit_endsTheChildrenLeftRunning() throws {
        let run = try FixtureRun(mode: "forgotten-children-stuck-stop")
        try #require(run.process.waitForLine("ready"))
        let unowned = try #require(run.child("unowned").flatMap(ProcessEndWatch.init(pid:)))
        run.process.send(SIGTERM)
        try #require(run.process.waitForLine("stop database"))  // which never answers

        run.process.send(SIGINT)

        #expect(run.process.waitForExit() == 128 + SIGINT)
        #expect(unowned.waitForEnd())
    }

    @Test func aRunnerKilledWithSIGKILL_takesItsChildrenWithIt() throws {
        let run = try FixtureRun(mode: "forgotten-children")
        try #require(run.process.waitForLine("ready"))
        let owned = try #require(run.child("owned").flatMap(ProcessEndWatch.init(pid:)))
        let unowned = try #require(run.child("unowned").flatMap(ProcessEndWatch.init(pid:)))

        run.process.send(SIGKILL)

        #expect(run.process.waitForExit() == nil, "killed, so no exit status")
        // The kernel's parent-death signal: nothing of the runner's ran after SIGKILL.
        #expect(owned.waitForEnd())
        #expect(unowned.waitForEnd())
    }
}

extension FixtureRun {
    /// The process id of the spawner's child with this role (`owned`, `unowned`), once it said so.
    func child(_ role: String) -> pid_t? {
        let prefix = "\(role) child "
        return process.lines.lazy.compactMap { line in
            line.hasPrefix(prefix) ? pid_t(line.dropFirst(prefix.count)) : nil
        }.first
    }
}
#endif
