import Foundation
import ResponseKit
import Testing

@testable import ResponseKitServices

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// The monitor's thread and files: a real trigger written to the real /proc/pressure/memory, the
/// kernel's refusals, and reports from a pipe standing in for a PSI file the kernel cannot be
/// made to fire on cue (ServiceRunnerProcessTests.MemoryPressure makes it fire for real, where the
/// machine lets a test limit a cgroup's memory).
///
/// Serialized, with ServiceRunnerMemoryPressureTests nested in it: these tests check that a closed
/// descriptor no longer names the file, which another test opening the same file at the same time
/// could make it name again.
@Suite(.serialized)
@MainActor
struct MemoryPressureMonitorTests {
    nonisolated static let systemWide = "/proc/pressure/memory"
    nonisolated static let hasPSI = FileManager.default.fileExists(atPath: systemWide)

    /// What `/proc/self/fd/<descriptor>` names: `/proc/pressure/memory`, `pipe:[…]`, or `nil` once closed.
    static func target(of descriptor: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
    }

    /// Where each of this process's threads named as the monitor names its thread waits
    /// (`/proc/self/task/<id>/wchan`, such as `poll_schedule_timeout.constprop.0`).
    static func monitorThreadsWaiting() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            guard name == "memory pressure\n" else { return nil }
            return (try? String(contentsOfFile: "/proc/self/task/\(task)/wchan", encoding: .utf8)) ?? ""
        }
    }

    /// A pipe whose read end stands in for a PSI file: a byte written is a report.
    struct StandIn {
        let readEnd: Int32
        let writeEnd: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            (readEnd, writeEnd) = (ends[0], ends[1])
        }

        func report() {
            let byte: [UInt8] = [1]
            #expect(write(writeEnd, byte, 1) == 1)
        }
    }

    /// Records the monitor's events and whether each came on the main queue; `arrived(count)`
    /// finishes once that many have.
    final class Reports: Sendable {
        private struct State {
            var events: [(MemoryPressureMonitor.Event, onMainQueue: Bool)] = []
            var waiters: [(count: Int, resolver: Resolver<Void>)] = []

            /// Takes out the waiters whose count has arrived.
            mutating func dueWaiters() -> [Resolver<Void>] {
                let due = waiters.filter { $0.count <= events.count }.map(\.resolver)
                waiters.removeAll { $0.count <= events.count }
                return due
            }
        }

        private let state = LockedBox.make(State())

        var all: [(MemoryPressureMonitor.Event, onMainQueue: Bool)] { state.withLock { $0.events } }

        func record(_ event: MemoryPressureMonitor.Event) {
            let onMainQueue = MainQueueProbe.isCurrent
            let due = state.withLock { state in
                state.events.append((event, onMainQueue))
                return state.dueWaiters()
            }
            for resolver in due { resolver.succeed() }
        }

        func arrived(_ count: Int) -> Response<Void> {
            let (response, resolver) = Response<Void>.pending(on: .immediate)
            let due = state.withLock { state in
                state.waiters.append((count, resolver))
                return state.dueWaiters()
            }
            for resolver in due { resolver.succeed() }
            return response
        }
    }

    // MARK: - The real file

    @Test(.enabled(if: hasPSI))
    func theKernelAcceptsTheTrigger_andStopClosesTheFile() throws {
        let file = MemoryPressureFile(path: Self.systemWide, trigger: "some 150000 2000000", window: .seconds(2))
        let monitor = try MemoryPressureMonitor(file: file) { _ in }
        let descriptor = try #require(
            (0..<1024).first { Self.target(of: $0) == Self.systemWide }, "the file is open while watched")

        monitor.stop()

        #expect(Self.target(of: descriptor) != Self.systemWide, "closed at the stop")
        monitor.stop()  // a second stop does nothing
    }

    @Test(.enabled(if: hasPSI))
    func aTriggerTheKernelRefuses_throwsItsReason_andLeavesNothingOpen() throws {
        // A 20 s window: more than the kernel's 10 s, refused everywhere with EINVAL.
        let file = MemoryPressureFile(path: Self.systemWide, trigger: "some 150000 20000000", window: .seconds(20))

        #expect {
            _ = try MemoryPressureMonitor(file: file) { _ in }
        } throws: { error in
            "\(error)" == "/proc/pressure/memory refused the trigger \"some 150000 20000000\": Invalid argument"
        }
        #expect(!(0..<1024).contains { Self.target(of: $0) == Self.systemWide })
    }

    @Test func aMissingFile_throwsItsReason() throws {
        let directory = try TemporaryDirectory()
        let file = MemoryPressureFile(
            path: directory.path + "/memory.pressure", trigger: "some 1 2", window: .seconds(2))

        #expect {
            _ = try MemoryPressureMonitor(file: file) { _ in }
        } throws: { error in
            "\(error)" == "cannot open \(file.path): No such file or directory"
        }
    }

    // MARK: - Reports, from a stand-in

    @Test func eachReport_reachesTheMainQueue_withTheTimeTheThreadWoke() async throws {
        let standIn = try StandIn()
        let reports = Reports()
        let before = ContinuousClock.now
        let monitor = try MemoryPressureMonitor(watching: standIn.readEnd, for: Int16(POLLIN), name: "stand-in") {
            reports.record($0)
        }

        standIn.report()
        _ = await outcome(of: reports.arrived(1))
        standIn.report()
        _ = await outcome(of: reports.arrived(2))

        let all = reports.all
        #expect(all.count == 2)
        for (event, onMainQueue) in all {
            guard case .pressure(let instant) = event else {
                Issue.record("not a report of pressure: \(event)")
                continue
            }
            #expect(instant >= before && instant <= ContinuousClock.now)
            #expect(onMainQueue)
        }
        monitor.stop()
        close(standIn.writeEnd)
    }

    @Test func theFileSayingItIsDone_endsTheWatch_withAReason() async throws {
        let standIn = try StandIn()
        let reports = Reports()
        let monitor = try MemoryPressureMonitor(watching: standIn.readEnd, for: Int16(POLLIN), name: "stand-in") {
            reports.record($0)
        }

        close(standIn.writeEnd)  // POLLHUP, as a PSI file whose cgroup is gone says POLLERR
        _ = await outcome(of: reports.arrived(1))

        #expect(reports.all.map(\.0) == [.ended(reason: "stand-in: the kernel ended the watch")])
        monitor.stop()  // the thread has returned already; the stop closes the files
    }

    @Test func stop_endsTheThreadWhileItWaits_andClosesTheFile() async throws {
        let standIn = try StandIn()
        let pipeName = try #require(Self.target(of: standIn.readEnd))
        let reports = Reports()
        let monitor = try MemoryPressureMonitor(watching: standIn.readEnd, for: Int16(POLLIN), name: "stand-in") {
            reports.record($0)
        }
        standIn.report()
        _ = await outcome(of: reports.arrived(1))  // the thread runs its loop
        #expect(!Self.monitorThreadsWaiting().isEmpty)

        monitor.stop()  // returns only once the thread has returned from its loop

        #expect(!Self.monitorThreadsWaiting().contains { $0.contains("poll") }, "no thread left waiting in poll")
        #expect(Self.target(of: standIn.readEnd) != pipeName)
        close(standIn.writeEnd)
    }

    @Test func releasingTheMonitor_stopsIt() throws {
        let standIn = try StandIn()
        let pipeName = try #require(Self.target(of: standIn.readEnd))
        var monitor: MemoryPressureMonitor? = try MemoryPressureMonitor(
            watching: standIn.readEnd, for: Int16(POLLIN), name: "stand-in"
        ) { _ in }
        _ = monitor

        monitor = nil

        #expect(Self.target(of: standIn.readEnd) != pipeName)
        close(standIn.writeEnd)
    }
}
#endif
