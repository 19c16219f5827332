import Foundation
import Testing

@testable import ResponseKitServices

/// Which pressure file the runner watches, and with which trigger: systemd's variables first, then
/// the process's cgroup, then the whole system's; against real files in a directory of the test's
/// own standing in for /proc and /sys/fs/cgroup.
struct MemoryPressureFileTests {
    typealias Watch = ServiceRunner.MemoryPressureWatch

    let directory: TemporaryDirectory
    /// The places under `directory`: a process in the cgroup-v2 group `/system.slice/app.service`,
    /// with `/proc/pressure/memory`, and nothing yet under the hierarchy roots.
    let places: MemoryPressureFile.Places

    init() throws {
        directory = try TemporaryDirectory()
        let root = directory.path
        places = MemoryPressureFile.Places(
            processGroups: try directory.write(
                "4:memory:/system.slice/app.service\n0::/system.slice/app.service\n", to: "proc/self/cgroup"),
            hierarchyRoots: [root + "/sys/fs/cgroup", root + "/sys/fs/cgroup/unified"],
            systemWide: try directory.write(
                "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", to: "proc/pressure/memory")
        )
    }

    func choose(_ watch: Watch = .default, environment: [String: String] = [:]) -> MemoryPressureFile.Choice {
        MemoryPressureFile.choose(for: watch, environment: environment, places: places)
    }

    func file(_ path: String, _ trigger: String = "some 200000 2000000", window: Duration = .seconds(2))
        -> MemoryPressureFile
    {
        MemoryPressureFile(path: path, trigger: trigger, window: window)
    }

    // MARK: - systemd's variables

    @Test func memoryPressureWatch_namesTheFile_andMemoryPressureWrite_theTrigger() {
        let trigger = Data("some 150000 4000000".utf8).base64EncodedString()
        let environment = [
            "MEMORY_PRESSURE_WATCH": "/sys/fs/cgroup/app.service/memory.pressure", "MEMORY_PRESSURE_WRITE": trigger,
        ]

        #expect(
            choose(environment: environment)
                == .watch([
                    file("/sys/fs/cgroup/app.service/memory.pressure", "some 150000 4000000", window: .seconds(4))
                ]))
    }

    @Test func systemdsTrigger_withItsNUL_isWrittenWithOneNUL() {
        let trigger = Data("some 200000 2000000\0".utf8).base64EncodedString()
        let choice = choose(environment: [
            "MEMORY_PRESSURE_WATCH": "/x/memory.pressure", "MEMORY_PRESSURE_WRITE": trigger,
        ])

        guard case .watch(let files) = choice else {
            Issue.record("not watching: \(choice)")
            return
        }
        #expect(files.map(\.trigger) == ["some 200000 2000000"])
        #expect(files.first?.triggerBytes == Array("some 200000 2000000".utf8) + [0])
    }

    @Test func memoryPressureWatch_withoutMemoryPressureWrite_writesTheAppsThreshold() {
        let environment = ["MEMORY_PRESSURE_WATCH": "/x/memory.pressure"]

        #expect(
            choose(.threshold(stall: .milliseconds(100), window: .seconds(2)), environment: environment)
                == .watch([file("/x/memory.pressure", "some 100000 2000000")]))
    }

    @Test func memoryPressureWatchDevNull_turnsItOff_withAReason() {
        #expect(
            choose(environment: ["MEMORY_PRESSURE_WATCH": "/dev/null"])
                == .off(reason: "MEMORY_PRESSURE_WATCH=/dev/null (MemoryPressureWatch=off)"))
    }

    @Test func aMemoryPressureWriteThatIsNotBase64_turnsItOff_withAReason() {
        let environment = ["MEMORY_PRESSURE_WATCH": "/x/memory.pressure", "MEMORY_PRESSURE_WRITE": "some 1 2"]

        #expect(
            choose(environment: environment)
                == .off(reason: "MEMORY_PRESSURE_WRITE=some 1 2 is not base64 of a trigger"))
    }

    @Test func theAppsOff_winsOverSystemd_andIsNotLogged() {
        #expect(choose(.off, environment: ["MEMORY_PRESSURE_WATCH": "/x/memory.pressure"]) == .off(reason: nil))
        #expect(choose(.off) == .off(reason: nil))
    }

    // MARK: - The process's cgroup, then the whole system

    @Test func theCgroupsFile_comesFirst_thenTheWholeSystems() throws {
        let group = try directory.write("", to: "sys/fs/cgroup/system.slice/app.service/memory.pressure")

        #expect(choose() == .watch([file(group), file(places.systemWide)]))
    }

    @Test func onAHybridLayout_theGroupIsFoundUnderUnified() throws {
        let group = try directory.write("", to: "sys/fs/cgroup/unified/system.slice/app.service/memory.pressure")

        #expect(choose() == .watch([file(group), file(places.systemWide)]))
    }

    @Test func theRootGroup_isTheRootsFile() throws {
        try directory.write("0::/\n", to: "proc/self/cgroup")
        let group = try directory.write("", to: "sys/fs/cgroup/memory.pressure")

        #expect(choose() == .watch([file(group), file(places.systemWide)]))
    }

    @Test func withoutTheGroupsFile_theWholeSystemsIsWatched() {
        #expect(choose() == .watch([file(places.systemWide)]))
    }

    @Test func withoutACgroupV2Line_theWholeSystemsIsWatched() throws {
        try directory.write("4:memory:/system.slice/app.service\n", to: "proc/self/cgroup")
        try directory.write("", to: "sys/fs/cgroup/system.slice/app.service/memory.pressure")

        #expect(choose() == .watch([file(places.systemWide)]))
    }

    @Test func aKernelWithoutPSI_turnsItOff_withAReason() throws {
        try FileManager.default.removeItem(atPath: places.systemWide)

        #expect(choose() == .off(reason: "the kernel reports no memory pressure here (no \(places.systemWide))"))
    }

    @Test func theRealPlaces_ofThisMachine() {
        // Whatever the machine, the choice ends with the whole system's file when the kernel has PSI.
        let choice = MemoryPressureFile.choose(for: .default, environment: [:])
        let hasPSI = FileManager.default.fileExists(atPath: "/proc/pressure/memory")
        guard case .watch(let files) = choice else {
            #expect(!hasPSI, "\(choice)")
            return
        }
        #expect(files.last?.path == "/proc/pressure/memory")
    }
}
