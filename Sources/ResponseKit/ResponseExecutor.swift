import Dispatch

/// Where a response delivers its callbacks.
///
/// ResponseKit's public API is tied to one main-queue executor: requests are made from the main
/// thread and callbacks come back on ``main``, unless a caller picks another executor on purpose:
///
/// - ``main``: `DispatchQueue.main`, the default. Callbacks run on the main queue, in order.
/// - ``immediate``: inline, on the thread that resolves the response (or that registers the
///   callback, when the response is already done). The cheapest choice; for tests and servers.
/// - ``queue(_:)``: any `DispatchQueue`.
/// - ``custom(_:)``: your own ``CallbackExecutor``, such as `ManualExecutor` from
///   `ResponseKitTesting`, which runs callbacks only when a test says so.
///
/// <!-- example: fragment -->
/// ```swift
/// let (response, resolver) = Response<Int>.pending(on: .immediate)
/// ```
///
/// The common executors are cases of a struct rather than types behind a protocol, so that a
/// response can tell them apart without a dynamic cast and deliver inline callbacks without
/// allocating a job.
public struct ResponseExecutor: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        case main
        case immediate
        case queue(DispatchQueue)
        /// Boxed, so the whole executor is one word instead of an existential's five.
        case custom(CustomExecutorBox)
    }

    @usableFromInline let kind: Kind

    @usableFromInline
    init(kind: Kind) {
        self.kind = kind
    }

    /// Delivers callbacks on `DispatchQueue.main`. The default executor of every response.
    @inlinable
    public static var main: ResponseExecutor { ResponseExecutor(kind: .main) }

    /// Delivers callbacks inline, on the thread that resolves the response, or on the thread
    /// that registers a callback on a response that is already done.
    ///
    /// - Warning: callbacks then run wherever the work finishes, possibly while the resolver's
    ///   caller holds its own locks. Keep them short.
    @inlinable
    public static var immediate: ResponseExecutor { ResponseExecutor(kind: .immediate) }

    /// Delivers callbacks asynchronously on `queue`. A serial queue keeps registration order.
    ///
    /// - Parameter queue: the queue that runs the callbacks.
    @inlinable
    public static func queue(_ queue: DispatchQueue) -> ResponseExecutor {
        ResponseExecutor(kind: .queue(queue))
    }

    /// Delivers callbacks through an executor of your own.
    ///
    /// - Parameter executor: runs each job it is given exactly once, in submission order, to keep
    ///   the order in which callbacks were registered.
    public static func custom(_ executor: any CallbackExecutor) -> ResponseExecutor {
        ResponseExecutor(kind: .custom(CustomExecutorBox(executor: executor)))
    }

    /// Runs `job` on this executor: inline for ``immediate``, enqueued otherwise.
    ///
    /// Jobs for ``main`` (and for `queue(.main)`) go through ResponseKit's own main-queue jobs,
    /// in order, so that a blocking read on the main thread can still run them.
    ///
    /// - Parameter job: the work to run, exactly once.
    public func run(_ job: @escaping @Sendable () -> Void) {
        switch kind {
        case .main:
            MainQueueJobs.enqueue(job)
        case .immediate:
            job()
        case .queue(let queue):
            if MainQueue.isMain(queue) {
                MainQueueJobs.enqueue(job)
            } else {
                queue.async(execute: job)
            }
        case .custom(let custom):
            custom.executor.execute(job)
        }
    }
}

extension ResponseExecutor: CustomStringConvertible {
    /// The executor's name, as in `main`, `immediate` or `queue(label)`.
    public var description: String {
        switch kind {
        case .main: "main"
        case .immediate: "immediate"
        case .queue(let queue): "queue(\(queue.label))"
        case .custom(let custom): "custom(\(type(of: custom.executor)))"
        }
    }
}

/// A user executor behind one reference.
@usableFromInline
final class CustomExecutorBox: Sendable {
    @usableFromInline let executor: any CallbackExecutor

    init(executor: any CallbackExecutor) {
        self.executor = executor
    }
}

/// An executor you write yourself, for use with ``ResponseExecutor/custom(_:)``.
///
/// Conforming types must run every job exactly once, and in the order they were submitted, so
/// that callbacks registered on a response run in registration order.
///
/// <!-- example: fragment -->
/// ```swift
/// struct LoggingExecutor: CallbackExecutor {
///     func execute(_ job: @escaping @Sendable () -> Void) {
///         print("delivering a callback")
///         DispatchQueue.main.async(execute: job)
///     }
/// }
/// let (response, resolver) = Response<Int>.pending(on: .custom(LoggingExecutor()))
/// ```
public protocol CallbackExecutor: Sendable {
    /// Runs `job` exactly once, after every job submitted before it.
    ///
    /// - Parameter job: the callback delivery to run.
    func execute(_ job: @escaping @Sendable () -> Void)
}
