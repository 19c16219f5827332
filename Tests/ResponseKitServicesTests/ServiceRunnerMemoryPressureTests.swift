import Foundation
import ResponseKit
import Testing

@testable import ResponseKitServices

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// What the runner makes of memory pressure: which file it watches (the real /proc/pressure/memory
/// where systemd's variables or the app say so), what it logs when it cannot, how a report becomes
/// ``LifecycleEvent/didReceiveMemoryWarning`` for the running services on the main queue, at most
/// once per window, and that the watch ends when the shutdown begins.
///
/// Nested in MemoryPressureMonitorTests, whose `.serialized` covers it: these tests open the real
/// file too.
extension MemoryPressureMonitorTests {
    @Suite @MainActor struct Runner {
        let bed = ServiceTestBed()
        let exited = Response<Int32>.pending()
        let logged = LogLines()

        func makeRunner(
            _ memoryPressure: ServiceRunner.MemoryPressureWatch,
            environment: [String: String] = [:],
            places: MemoryPressureFile.Places = MemoryPressureFile.Places()
        ) -> ServiceRunner {
            let resolver = exited.resolver
            return ServiceRunner(
                manager: bed.manager,
                signals: [],
                memoryPressure: memoryPressure,
                memoryPressurePlaces: places,
                log: { [logged] line in logged.lines.append(line) },
                environment: environment,
                exit: { status in resolver.succeed(status) }
            )
        }

        /// Launches `runner` and waits until `service` is running.
        func launch(_ runner: ServiceRunner, waitingFor service: ScriptedService) async {
            runner.launch()
            _ = await outcome(of: service.called("didBecomeActive"))
        }

        var warnings: Int {
            bed.journal.lines.filter { $0.hasSuffix(" handles didReceiveMemoryWarning") }.count
        }

        // MARK: - The file

        @Test(.enabled(if: MemoryPressureMonitorTests.hasPSI))
        func underSystemdsVariables_theRunnerWritesTheUnitsTrigger_andStopsWatchingAtTheShutdown() async throws {
            let service = try bed.service("a")
            let trigger = Data("some 150000 2000000".utf8).base64EncodedString()
            let runner = makeRunner(
                .default,
                environment: ["MEMORY_PRESSURE_WATCH": "/proc/pressure/memory", "MEMORY_PRESSURE_WRITE": trigger])

            await launch(runner, waitingFor: service)

            #expect(
                logged.lines.contains(
                    "watching memory pressure at /proc/pressure/memory (trigger \"some 150000 2000000\")"))
            #expect(runner.memoryPressureMonitor != nil)
            #expect(runner.memoryPressureState?.window == .seconds(2))

            runner.handleSignal(SIGTERM)

            #expect(runner.memoryPressureMonitor == nil, "stopped as the shutdown begins")
            #expect(try await outcome(of: exited.response).get() == ServiceRunner.cleanExitStatus)
        }

        @Test(.enabled(if: MemoryPressureMonitorTests.hasPSI))
        func aGroupFileThatRefuses_fallsBackToTheWholeSystems() async throws {
            let directory = try TemporaryDirectory()
            let processGroups = try directory.write("0::/app.service\n", to: "proc/self/cgroup")
            // A directory where the group's file should be: opening it for writing fails (EISDIR).
            try FileManager.default.createDirectory(
                atPath: directory.path + "/cgroup/app.service/memory.pressure", withIntermediateDirectories: true)
            let places = MemoryPressureFile.Places(
                processGroups: processGroups, hierarchyRoots: [directory.path + "/cgroup"])
            let service = try bed.service("a")
            let runner = makeRunner(.threshold(stall: .milliseconds(100), window: .seconds(2)), places: places)

            await launch(runner, waitingFor: service)

            let groupFile = directory.path + "/cgroup/app.service/memory.pressure"
            #expect(
                logged.lines.contains(
                    "watching memory pressure at /proc/pressure/memory (trigger \"some 100000 2000000\"); "
                        + "cannot open \(groupFile): Is a directory"))
            #expect(runner.memoryPressureMonitor != nil)
        }

        @Test func aFileThatCannotBeWatched_isLogged_andTheAppRunsOn() async throws {
            let service = try bed.service("a")
            let runner = makeRunner(.default, environment: ["MEMORY_PRESSURE_WATCH": "/nonexistent/memory.pressure"])

            await launch(runner, waitingFor: service)

            #expect(
                logged.lines.contains(
                    "not watching memory pressure: cannot open /nonexistent/memory.pressure: No such file or directory")
            )
            #expect(runner.memoryPressureMonitor == nil)
            #expect(!exited.response.isDone)
        }

        @Test func systemdsOff_isLogged() async throws {
            let service = try bed.service("a")
            let runner = makeRunner(.default, environment: ["MEMORY_PRESSURE_WATCH": "/dev/null"])

            await launch(runner, waitingFor: service)

            #expect(
                logged.lines.contains(
                    "not watching memory pressure: MEMORY_PRESSURE_WATCH=/dev/null (MemoryPressureWatch=off)"))
            #expect(runner.memoryPressureMonitor == nil)
        }

        @Test func theAppsOff_watchesNothing_andSaysNothing() async throws {
            let service = try bed.service("a")
            let runner = makeRunner(.off, environment: ["MEMORY_PRESSURE_WATCH": "/proc/pressure/memory"])

            await launch(runner, waitingFor: service)

            #expect(runner.memoryPressureMonitor == nil)
            #expect(runner.memoryPressureState == nil)
            #expect(!logged.lines.contains { $0.contains("memory pressure") })
        }

        // MARK: - Warnings

        @Test func aReportFromTheMonitor_sendsDidReceiveMemoryWarning_toTheRunningServices_onTheMainQueue() async throws
        {
            let first = try bed.service("a")
            let second = try bed.service("b")
            let runner = makeRunner(.off)
            await launch(runner, waitingFor: second)
            let standIn = try StandIn()
            runner.memoryPressureState = MemoryPressureState(window: .seconds(2))
            runner.memoryPressureMonitor = try MemoryPressureMonitor(
                watching: standIn.readEnd, for: Int16(POLLIN), name: "stand-in", report: runner.memoryPressureReporter)

            standIn.report()

            _ = await outcome(of: second.called("didReceiveMemoryWarning"))
            #expect(
                bed.journal.lines.suffix(2) == [
                    "a handles didReceiveMemoryWarning", "b handles didReceiveMemoryWarning",
                ])
            #expect(first.handledOnMainQueue.last == true)
            #expect(logged.lines.last == "memory is short; sending didReceiveMemoryWarning")
            runner.handleSignal(SIGTERM)
            #expect(runner.memoryPressureMonitor == nil)
            close(standIn.writeEnd)
        }

        @Test func warningsAreSent_atMostOncePerWindow() async throws {
            let service = try bed.service("a")
            let runner = makeRunner(.off)
            await launch(runner, waitingFor: service)
            runner.memoryPressureState = MemoryPressureState(window: .seconds(2))
            let start = ContinuousClock.now

            for offset in [0, 500, 1999, 2000, 3000, 4100] {
                runner.memoryPressureReported(.pressure(at: start + .milliseconds(offset)))
            }

            #expect(warnings == 3, "at 0, 2000 and 4100 ms")
        }

        @Test func noWarning_onceTheShutdownBegan() async throws {
            let service = try bed.service("a", stop: .hold)
            let runner = makeRunner(.off)
            await launch(runner, waitingFor: service)
            runner.memoryPressureState = MemoryPressureState(window: .seconds(2))

            runner.handleSignal(SIGTERM)
            _ = await outcome(of: service.called("stop"))
            runner.memoryPressureReported(.pressure(at: .now))

            #expect(warnings == 0)
            #expect(runner.memoryPressureState?.phase == .stopped)
        }

        @Test func whenTheKernelEndsTheWatch_itIsLoggedOnce_andNoWarningFollows() async throws {
            let service = try bed.service("a")
            let runner = makeRunner(.off)
            await launch(runner, waitingFor: service)
            runner.memoryPressureState = MemoryPressureState(window: .seconds(2))

            runner.memoryPressureReported(.ended(reason: "x: the kernel ended the watch"))
            runner.memoryPressureReported(.ended(reason: "x: the kernel ended the watch"))
            runner.memoryPressureReported(.pressure(at: .now))

            #expect(
                logged.lines.filter { $0.hasPrefix("stopped watching memory pressure") }
                    == ["stopped watching memory pressure: x: the kernel ended the watch"])
            #expect(warnings == 0)
        }
    }
}
#endif
