import Foundation

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// A memory cgroup of the test's own, limited to a few megabytes, so that a process moved into it
/// stalls on reclaim as soon as it writes more than that: real memory pressure, which the
/// kernel's PSI counts (in the process's groups and the whole system's `/proc/pressure/memory`).
///
/// Where the test may make one: the cgroup-v1 memory hierarchy (`/sys/fs/cgroup/memory`, limit in
/// `memory.limit_in_bytes`), or cgroup v2 with the memory controller given to the root's children
/// (`memory.max`). Usually only as root, outside a container that hides the hierarchy. The group
/// is removed when released; the processes in it must have exited by then.
final class MemoryLimitedGroup {
    /// Where a group can be made, and the name of its limit file; `nil` when nowhere.
    static let place: (root: String, limitFile: String)? = {
        let v2 = "/sys/fs/cgroup"
        let v2Controllers = (try? String(contentsOfFile: v2 + "/cgroup.subtree_control", encoding: .utf8)) ?? ""
        if v2Controllers.split(separator: " ").contains(where: {
            $0.trimmingCharacters(in: .whitespacesAndNewlines) == "memory"
        }),
            access(v2, W_OK) == 0
        {
            return (v2, "memory.max")
        }
        let v1 = "/sys/fs/cgroup/memory"
        if access(v1 + "/memory.limit_in_bytes", F_OK) == 0, access(v1, W_OK) == 0 {
            return (v1, "memory.limit_in_bytes")
        }
        return nil
    }()

    static var isPossible: Bool { place != nil }

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    let path: String

    /// The file a process writes its id into to join the group.
    var processesFile: String { path + "/cgroup.procs" }

    /// Makes the group, limited to `limit` bytes.
    init(limit: Int) throws {
        guard let place = Self.place else { throw Unavailable(description: "no writable memory cgroup hierarchy") }
        path = place.root + "/ResponseKitTests-\(getpid())-\(UUID().uuidString.prefix(8))"
        guard mkdir(path, 0o755) == 0 else {
            throw Unavailable(description: "mkdir \(path): \(String(cString: strerror(errno)))")
        }
        do {
            try "\(limit)".write(toFile: path + "/" + place.limitFile, atomically: false, encoding: .utf8)
        } catch {
            rmdir(path)
            throw error
        }
    }

    deinit {
        rmdir(path)
    }
}
#endif
