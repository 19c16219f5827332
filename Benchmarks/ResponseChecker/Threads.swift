import Dispatch
import Foundation
import ResponseKit

/// Runs `bodies` at once, each on a thread of its own, released together by a start barrier, and
/// waits for all of them until `deadline`. Returns `false` when one was still running then.
///
/// Threads rather than `DispatchQueue.global()` work items: on two cores a global queue may not
/// start a new worker for an item while the others block on the barrier or in a read, so the
/// race would be serialised or stall, and the stall would look like the library hanging.
func runConcurrently(_ bodies: [@Sendable () -> Void], deadline: DispatchTime) -> Bool {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for body in bodies {
        done.enter()
        let thread = Thread {
            start.wait()
            body()
            done.leave()
        }
        thread.start()
    }
    for _ in bodies { start.signal() }
    return done.wait(timeout: deadline) == .success
}

/// The only stored copy of a source's resolver, which a racing step takes a copy of to resolve
/// or lets go of (the drop): when the last copy goes, the response fails as abandoned.
final class ResolverSlot: Sendable {
    private let resolver: LockedBox<Resolver<Int>?>

    init(_ resolver: Resolver<Int>) {
        self.resolver = .make(resolver)
    }

    /// A copy to resolve with, or `nil` once dropped. The caller's copy keeps the response
    /// resolvable until it goes out of scope, as a real producer's would.
    func take() -> Resolver<Int>? {
        resolver.withLock { $0 }
    }

    /// Lets go of the stored copy, outside the lock: releasing the last copy finishes the response
    /// and runs `.immediate` callbacks on this thread, which must not run under our lock.
    func drop() {
        let dropped = resolver.withLock { resolver in
            defer { resolver = nil }
            return resolver
        }
        withExtendedLifetime(dropped) {}
    }
}
