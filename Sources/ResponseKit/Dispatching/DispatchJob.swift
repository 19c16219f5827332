import CResponseKit
import Dispatch

/// Work sent to a Dispatch queue through libdispatch's C entry point, `dispatch_async_f`: the job
/// object itself is Dispatch's context, so a hop costs no block (`DispatchQueue.async` copies the
/// closure into a block, retains and releases it) and no closure box of its own.
///
/// Why it exists: in W7 under `dispatchMain()` (Benchmarks/README.md, "Issue 25"), a request
/// made on the main queue and finished on a global queue cost a closure and a block besides the
/// response and the body; a job is one object, which Dispatch does not copy: one allocation
/// fewer per request, and W7/64 and W7/1024 under `dispatchMain()` faster (the figures are in
/// Benchmarks/README.md).
///
/// Subclass it (final) for each kind of work; ``DispatchJobs/send(_:to:)`` sends it.
///
/// `@unchecked Sendable`, proved: this class's only stored property is a `let` of a `@Sendable`
/// closure (Swift checks only final classes, and this one is subclassed). A job is handed over
/// whole, by `dispatch_async_f`, which orders the hand-off as `DispatchQueue.async` does. Each
/// subclass must restate the conformance with its own proof; the class is not public, so none
/// exists outside this module.
@usableFromInline
class DispatchJob: @unchecked Sendable {
    /// The work: runs once, on the queue, given the job itself (a closure that captures nothing,
    /// made by the subclass, which knows its own type).
    @usableFromInline let perform: @Sendable (DispatchJob) -> Void

    @inlinable
    init(perform: @escaping @Sendable (DispatchJob) -> Void) {
        self.perform = perform
    }
}

/// Sends ``DispatchJob``s to Dispatch queues.
@usableFromInline
enum DispatchJobs {
    /// Where to send jobs for `queue`, or `nil` to send them with ``ResponseExecutor/run(_:)``
    /// instead: for the main queue (whose work goes through ``MainQueueJobs``, so that a blocking
    /// read on the main thread can run it), and when this build of Dispatch keeps its queue where
    /// ResponseKit does not expect it (``address(of:)``).
    @usableFromInline
    static func destination(for queue: DispatchQueue) -> UnsafeMutableRawPointer? {
        guard let target = address(of: queue), target != rk_dispatch_main_queue() else { return nil }
        return target
    }

    /// Sends `job` to `destination` (from ``destination(for:)``), to run once.
    @usableFromInline
    static func send(_ job: DispatchJob, to destination: UnsafeMutableRawPointer) {
        rk_dispatch_async_f(destination, Unmanaged.passRetained(job).toOpaque(), runJob)
    }

    /// The `dispatch_queue_t` that `queue` wraps, or `nil` where that is not known.
    ///
    /// Apple platforms bridge `DispatchQueue` to the queue object itself. Swift's Dispatch on other
    /// platforms wraps it: `DispatchQueue` is a class whose one stored property is the
    /// `dispatch_queue_t`, after the object header. Neither is public API, so it is checked once
    /// per process before it is used (``layoutIsKnown``); if the check fails, every job goes
    /// through `DispatchQueue.async` as before.
    static func address(of queue: DispatchQueue) -> UnsafeMutableRawPointer? {
        guard layoutIsKnown else { return nil }
        return unverifiedAddress(of: queue)
    }

    private static func unverifiedAddress(of queue: DispatchQueue) -> UnsafeMutableRawPointer {
        let object = Unmanaged.passUnretained(queue).toOpaque()
        #if canImport(Darwin)
        return object
        #else
        return object.load(fromByteOffset: wrappedQueueOffset, as: UnsafeMutableRawPointer.self)
        #endif
    }

    /// Where Swift's Dispatch keeps the wrapped queue in a `DispatchQueue` object off Apple
    /// platforms: right after the two-word object header.
    private static let wrappedQueueOffset = 2 * MemoryLayout<UnsafeRawPointer>.size

    /// Whether ``unverifiedAddress(of:)`` finds the queue: it must give, for
    /// `DispatchQueue.global()` and `DispatchQueue.main`, the very pointers libdispatch's
    /// `dispatch_get_global_queue` and `dispatch_get_main_queue` return. Comparisons of pointers:
    /// nothing is read through the ones found. Computed once.
    private static let layoutIsKnown: Bool = {
        let global = DispatchQueue.global()
        let main = DispatchQueue.main
        return withExtendedLifetime((global, main)) {
            unverifiedAddress(of: global) == rk_dispatch_default_global_queue()
                && unverifiedAddress(of: main) == rk_dispatch_main_queue()
        }
    }()
}

/// What Dispatch calls with a job's context: takes back the reference ``DispatchJobs/send(_:to:)``
/// gave, runs the job, and releases it.
private let runJob: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    guard let context else { return }
    let job = Unmanaged<DispatchJob>.fromOpaque(context).takeRetainedValue()
    job.perform(job)
}
