import Dispatch

/// Runs a job after a delay: the source of time for ``Response/timeout(after:scheduler:file:line:)``,
/// ``Response/delay(by:scheduler:file:line:)`` and ``Response/retry(attempts:backoff:scheduler:on:shouldRetry:file:line:_:)``.
///
/// Production code uses ``dispatch`` (the default). Tests pass `ManualScheduler` from
/// `ResponseKitTesting` and move time by hand, so they never sleep:
///
/// <!-- example: fragment -->
/// ```swift
/// let scheduler = ManualScheduler()
/// let (slowWork, resolver) = Response<Int>.pending(on: .immediate)   // nothing resolves it in time
/// let response = slowWork.timeout(after: .seconds(5), scheduler: scheduler)
/// scheduler.advance(by: .seconds(5))
/// #expect(throws: ResponseError.deadlineExceeded) { try response.value }
/// #expect(resolver.isCancelled)                                      // and the work was told to stop
/// ```
///
/// Needs macOS 13, iOS 16, tvOS 16 or watchOS 9: delays are `Duration`s.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public protocol ResponseScheduler: Sendable {
    /// Runs `job` once, `delay` from now, unless the returned handle is cancelled first.
    ///
    /// - Parameters:
    ///   - delay: how long to wait; zero or less means as soon as possible.
    ///   - job: the work to run.
    /// - Returns: a handle that stops the job from running.
    func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> ScheduledJob
}

/// A job a ``ResponseScheduler`` will run later; cancel it when it is no longer wanted.
public struct ScheduledJob: Sendable {
    private let cancelAction: @Sendable () -> Void

    /// Makes a handle whose ``cancel()`` calls `cancel`.
    ///
    /// - Parameter cancel: stops the job; may be called more than once and after the job ran.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.cancelAction = cancel
    }

    /// Stops the job from running if it has not run yet.
    public func cancel() {
        cancelAction()
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ResponseScheduler where Self == DispatchScheduler {
    /// Schedules on a global Dispatch queue, in real time.
    public static var dispatch: DispatchScheduler { DispatchScheduler() }
}

/// A ``ResponseScheduler`` on a Dispatch queue, in real time.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct DispatchScheduler: ResponseScheduler {
    private let queue: DispatchQueue

    /// Makes a scheduler that runs jobs on `queue`.
    ///
    /// - Parameter queue: where jobs run; a global queue by default.
    public init(queue: DispatchQueue = .global()) {
        self.queue = queue
    }

    /// Runs `job` on the queue after `delay`.
    ///
    /// - Parameters:
    ///   - delay: how long to wait.
    ///   - job: the work to run.
    /// - Returns: a handle that cancels the job.
    public func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> ScheduledJob {
        // Cancelling drops the job at once, so whatever it captured is not kept until the deadline.
        let pending = LockedBox<(@Sendable () -> Void)?>.make(job)
        queue.asyncAfter(deadline: Self.deadline(after: delay)) {
            let job = pending.withLock { job in
                defer { job = nil }
                return job
            }
            job?()
        }
        return ScheduledJob { pending.withLock { $0 = nil } }
    }

    /// Now plus `delay`, saturating: a delay too long for Dispatch means "never" rather than
    /// wrapping around to "at once".
    static func deadline(after delay: Duration) -> DispatchTime {
        let (seconds, attoseconds) = max(delay, .zero).components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (nanoseconds, carry) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow, !carry else { return .distantFuture }
        let now = DispatchTime.now().uptimeNanoseconds
        let (sum, tooFar) = now.addingReportingOverflow(UInt64(nanoseconds))
        return tooFar ? .distantFuture : .saturating(uptimeNanoseconds: sum)
    }
}
