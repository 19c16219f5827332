import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Linux pressure-stall file to watch for memory pressure, and the trigger to write into it;
/// and the choice of that file, from systemd's variables or the process's cgroup.
///
/// The choice, in order:
/// 1. The app said ``ServiceRunner/MemoryPressureWatch/off``: nothing.
/// 2. `$MEMORY_PRESSURE_WATCH` set (systemd's `MemoryPressureWatch=`): `/dev/null` means off;
///    any other value is the one file to watch, with the trigger `$MEMORY_PRESSURE_WRITE`
///    (base64) when set, else the app's.
/// 3. Otherwise the `memory.pressure` of the process's cgroup-v2 group (the `0::/path` line of
///    `/proc/self/cgroup`, under `/sys/fs/cgroup`, or `/sys/fs/cgroup/unified` on a hybrid
///    layout), when it exists; then `/proc/pressure/memory`, the whole system's, should the
///    group's file refuse us (an unprivileged process cannot write a root-owned group's file).
///    Neither exists on a kernel without PSI: nothing.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct MemoryPressureFile: Equatable {
    /// What to watch, or why nothing.
    enum Choice: Equatable {
        /// Try these files in order; the first that accepts its trigger is watched.
        case watch([MemoryPressureFile])
        /// Nothing to watch; `reason` says why, for the log, or is `nil` when the app said so.
        case off(reason: String?)
    }

    /// Where the automatic choice looks: the real places, or a test's temporary ones.
    struct Places {
        /// The process's cgroup membership, whose `0::` line names its cgroup-v2 group.
        var processGroups = "/proc/self/cgroup"
        /// Where the cgroup-v2 hierarchy may be mounted: the unified layout's place first.
        var hierarchyRoots = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]
        /// The whole system's memory pressure.
        var systemWide = "/proc/pressure/memory"
    }

    /// The file: a PSI `memory.pressure` or `/proc/pressure/memory`.
    let path: String
    /// The trigger written into it, such as `some 200000 2000000`, as text for the log.
    let trigger: String
    /// The least time between two warnings: the trigger's window.
    let window: Duration

    /// The trigger's bytes as written: the text and a terminating NUL. The kernel turns the last
    /// byte of the write into a NUL, so a trigger written without one loses its last digit
    /// (`some 200000 2000000` becomes a 200 ms window, refused), as psi.rst's example shows.
    var triggerBytes: [UInt8] {
        var bytes = Array(trigger.utf8)
        if bytes.last != 0 { bytes.append(0) }
        return bytes
    }

    /// Chooses what to watch.
    ///
    /// - Parameters:
    ///   - watch: what the app asked for.
    ///   - environment: the process's environment (systemd's variables), or a test's.
    ///   - places: where the automatic choice looks.
    /// - Returns: the files to try, in order, or why there are none.
    static func choose(
        for watch: ServiceRunner.MemoryPressureWatch,
        environment: [String: String],
        places: Places = Places()
    ) -> Choice {
        guard let appTrigger = watch.trigger, let appWindow = watch.window else { return .off(reason: nil) }
        if let watched = environment["MEMORY_PRESSURE_WATCH"], !watched.isEmpty {
            if watched == "/dev/null" {
                return .off(reason: "MEMORY_PRESSURE_WATCH=/dev/null (MemoryPressureWatch=off)")
            }
            guard let written = environment["MEMORY_PRESSURE_WRITE"], !written.isEmpty else {
                return .watch([MemoryPressureFile(path: watched, trigger: appTrigger, window: appWindow)])
            }
            guard let bytes = Data(base64Encoded: written), let text = String(bytes: bytes, encoding: .utf8) else {
                return .off(reason: "MEMORY_PRESSURE_WRITE=\(written) is not base64 of a trigger")
            }
            let trigger = text.trimmingCharacters(in: CharacterSet(charactersIn: "\0\n "))
            return .watch([
                MemoryPressureFile(path: watched, trigger: trigger, window: window(of: trigger) ?? appWindow)
            ])
        }
        var paths: [String] = []
        if let group = cgroupV2Group(in: places.processGroups) {
            let suffix = group.hasSuffix("/") ? "memory.pressure" : "/memory.pressure"
            let groupFiles = places.hierarchyRoots.map { $0 + group + suffix }
            if let existing = groupFiles.first(where: { access($0, F_OK) == 0 }) { paths.append(existing) }
        }
        if access(places.systemWide, F_OK) == 0 { paths.append(places.systemWide) }
        guard !paths.isEmpty else {
            return .off(reason: "the kernel reports no memory pressure here (no \(places.systemWide))")
        }
        return .watch(paths.map { MemoryPressureFile(path: $0, trigger: appTrigger, window: appWindow) })
    }

    /// The group of the `0::/path` line (cgroup v2), such as `/system.slice/app.service`.
    static func cgroupV2Group(in processGroups: String) -> String? {
        guard let text = try? String(contentsOfFile: processGroups, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("0::/") {
            return String(line.dropFirst(3))
        }
        return nil
    }

    /// The window of a trigger `some|full <stall µs> <window µs>`, if it has one.
    static func window(of trigger: String) -> Duration? {
        let fields = trigger.split(separator: " ")
        guard fields.count == 3, let microseconds = Int64(fields[2]), microseconds > 0 else { return nil }
        return .microseconds(microseconds)
    }
}
