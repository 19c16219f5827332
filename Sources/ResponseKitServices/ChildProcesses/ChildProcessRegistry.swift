import ResponseKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The children that ``ChildProcess/spawn(_:arguments:environment:descriptors:ownedBy:gracePeriod:)``
/// started and that have not been reaped yet: what ``ServiceManager`` ends when a service stops
/// and ``ServiceRunner`` ends before the process exits, whether or not their owners remembered.
///
/// A child is added before its reaper starts and removed by the reaper, before its termination is
/// told: once a child's ``ChildProcess/termination`` has succeeded, it is no longer listed.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class ChildProcessRegistry: Sendable {
    /// The process's children.
    static let shared = ChildProcessRegistry()

    /// The running children by process id.
    private let running = LockedBox<[pid_t: ChildProcess]>.make([:])

    /// Lists `child` until ``remove(_:)``.
    func add(_ child: ChildProcess) {
        running.withLock { $0[child.processIdentifier] = child }
    }

    /// Stops listing `child`, which has exited.
    func remove(_ child: ChildProcess) {
        running.withLock { _ = $0.removeValue(forKey: child.processIdentifier) }
    }

    /// The running children owned by `service`, or every running child when `service` is `nil`,
    /// in the order they were started (process ids are not, but are close enough for a log).
    func children(ownedBy service: (any Service)? = nil) -> [ChildProcess] {
        let owner = service.flatMap(Self.identity(of:))
        if service != nil, owner == nil { return [] }  // a value-type service owns nothing
        let all = running.withLock { Array($0.values) }
        return all.filter { owner == nil || $0.owner == owner }.sorted { $0.processIdentifier < $1.processIdentifier }
    }

    /// Ends `children` (SIGTERM, then SIGKILL after each one's grace period), then calls `body` on
    /// the main queue once every one has exited; at once when there are none.
    @MainActor
    func end(_ children: [ChildProcess], then body: @escaping @MainActor () -> Void) {
        guard !children.isEmpty else {
            body()
            return
        }
        Response.allSettled(children.map { $0.end() }).mainActor.onResult { _ in body() }
    }

    /// Sends `signal` to every running child, and waits for nothing: for an exit that cannot wait.
    func signalAll(_ signal: Int32) {
        for child in children() { child.signal(signal) }
    }

    /// The identity a service's children are recorded under: the object of a class service; `nil`
    /// for a value type, which has no identity to keep.
    static func identity(of service: any Service) -> ObjectIdentifier? {
        guard type(of: service) is AnyClass else { return nil }
        return ObjectIdentifier(service as AnyObject)
    }
}
