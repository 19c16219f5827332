import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// Memory pressure in a real runner process: `ServiceRunnerFixture` under systemd's
/// `$MEMORY_PRESSURE_WATCH` and `$MEMORY_PRESSURE_WRITE`, writing its trigger into the real
/// /proc/pressure/memory; and, where the machine lets a test limit a cgroup's memory, real
/// pressure from a process writing more than its group may hold, which the kernel reports and the
/// services hear as `didReceiveMemoryWarning`.
///
/// Nested in ServiceRunnerProcessTests, whose `.serialized` covers it: no other fixture runs
/// meanwhile (the others turn the watch off with `MEMORY_PRESSURE_WATCH=/dev/null`, but the pressure
/// made here is the whole system's).
extension ServiceRunnerProcessTests {
    @Suite struct MemoryPressure {}
}

extension ServiceRunnerProcessTests.MemoryPressure {
    static let hasPSI = FileManager.default.fileExists(atPath: "/proc/pressure/memory")

    /// systemd's variables for the whole system's file and `trigger`.
    static func environment(trigger: String) -> [String: String] {
        [
            "MEMORY_PRESSURE_WATCH": "/proc/pressure/memory",
            "MEMORY_PRESSURE_WRITE": Data(trigger.utf8).base64EncodedString(),
        ]
    }

    /// What the process `pid` has open, as `/proc/<pid>/fd` names it.
    static func openFiles(of pid: pid_t) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return descriptors.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)")
        }
    }

    @Test(.enabled(if: hasPSI))
    func aRealRunWritesTheUnitsTrigger_keepsTheFileOpen_andExitsCleanly() throws {
        let run = try FixtureRun(mode: "clean", environment: Self.environment(trigger: "some 150000 2000000"))
        try #require(run.process.waitForLine("ready"))

        #expect(
            run.process.lines.contains(
                "ServiceRunner: watching memory pressure at /proc/pressure/memory (trigger \"some 150000 2000000\")"))
        #expect(Self.openFiles(of: run.process.pid).contains("/proc/pressure/memory"))
        run.process.send(SIGTERM)
        #expect(run.process.waitForExit() == 0)
    }

    @Test(.enabled(if: MemoryLimitedGroup.isPossible))
    func realPressure_fromAProcessInAMemoryLimitedGroup_reachesTheServices() throws {
        // 1 ms of stall in 2 s: the first reclaim that makes a task wait crosses it.
        let run = try FixtureRun(mode: "clean", environment: Self.environment(trigger: "some 1000 2000000"))
        try #require(run.process.waitForLine("ready"))
        let group = try MemoryLimitedGroup(limit: 32 << 20)
        let scratch = try TemporaryDirectory()

        // Page cache is charged to the writer's group: past 32 MiB, each write waits for reclaim
        // (and writeback). At most 1 GiB of disk, a few seconds; killed as soon as the warning came.
        let writer = try TestProcess(
            URL(fileURLWithPath: "/bin/sh"),
            arguments: [
                "-c",
                "echo $$ > \(group.processesFile) && exec dd if=/dev/zero of=\(scratch.path)/fill bs=1M count=1024",
            ])
        let warned = run.process.waitForLine("event database didReceiveMemoryWarning")
        writer.send(SIGKILL)
        _ = writer.waitForExit()

        #expect(warned, "no warning; the fixture said: \(run.process.lines)")
        #expect(run.process.lines.contains("ServiceRunner: memory is short; sending didReceiveMemoryWarning"))
        run.process.send(SIGTERM)
        #expect(run.process.waitForExit() == 0)
        #expect(run.loggedEvents.contains("didReceiveMemoryWarning"), "the analytics service heard it too")
    }
}
#endif
