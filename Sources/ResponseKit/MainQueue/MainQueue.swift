import CResponseKit
import Dispatch

/// Answers "where am I?" for the main queue, which `Thread.isMainThread` alone cannot: on Linux,
/// after `dispatchMain()` (and in async `main`s such as Swift Testing's runner) main-queue jobs,
/// and so `@MainActor` code, run on a thread that is not the main thread.
@usableFromInline
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether `queue` is the main queue. Not `queue === DispatchQueue.main`: on Linux each read of
    /// `DispatchQueue.main` makes a new wrapper object; the queue's own specifics tell.
    static func isMain(_ queue: DispatchQueue) -> Bool {
        queue.getSpecific(key: key) == true
    }

    /// Whether the caller runs inside a job of the main queue (a `DispatchQueue.main` block, a
    /// `@MainActor` task's step): there the main queue cannot run anything else until it returns.
    static var isInsideJob: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }

    /// Whether the caller runs on the main thread (cheap: no system call).
    @usableFromInline
    static var isMainThread: Bool {
        rk_is_main_thread()
    }

    /// Whether the caller runs on the main thread or inside a main-queue job: where main-actor
    /// code may run synchronously.
    @usableFromInline
    static var isCurrent: Bool {
        rk_is_main_thread() || isInsideJob
    }
}
