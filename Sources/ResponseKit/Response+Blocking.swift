import Dispatch
import Foundation

extension Response {
    /// The value, waiting until the response is done: the blocking-future style.
    ///
    /// Tests use it to be deterministic:
    ///
    /// ```swift
    /// let (response, resolver) = Response<Int>.pending()
    /// DispatchQueue.global().async { resolver.succeed(42) }
    /// #expect(try response.value == 42)
    /// ```
    ///
    /// **The main thread does not deadlock.** On the main thread the wait keeps servicing the
    /// main queue (by running `RunLoop.main`), so work that needs the main queue still finishes;
    /// main-queue callbacks, this response's included, may therefore run *during* the wait.
    /// Elsewhere the wait blocks on a semaphore, created only when someone blocks.
    ///
    /// A wait that lasts longer than ``ResponseDiagnostics/longWaitThreshold`` is reported once
    /// through ``ResponseDiagnostics`` (it may never finish: for example a callback on a serial
    /// queue blocking on work queued behind it) and goes on waiting. Use ``wait(timeout:)`` to
    /// give up instead.
    ///
    /// In async code prefer `try await response.get()` (see ``get()``), which suspends instead of
    /// blocking a thread of the cooperative pool. `value` is deliberately not `noasync`, so that
    /// `try await response.value` compiles and works (it blocks until done), but each such wait
    /// holds a pool thread, and work that needs the pool may then have to wait for one.
    ///
    /// - Throws: the response's failure; `CancellationError` when it was cancelled.
    public var value: Value {
        get throws { try waitForResult(deadline: nil)!.get() }
    }

    /// The failure, waiting until the response is done; `nil` when it succeeded.
    ///
    /// Waits like ``value``, on the main thread too.
    public var error: (any Error)? {
        if case .failure(let error) = waitForResult(deadline: nil)! { return error }
        return nil
    }

    /// The result, waiting until the response is done.
    ///
    /// Waits like ``value``, on the main thread too.
    public var result: Result<Value, any Error> {
        waitForResult(deadline: nil)!
    }

    /// The value, waiting at most `timeout` for the response to be done.
    ///
    /// Giving up does not cancel the response: call ``cancel()`` for that.
    ///
    /// ```swift
    /// do {
    ///     let user = try response.wait(timeout: .seconds(2))
    /// } catch let error as ResponseError where error == .timedOut {
    ///     print("still loading")
    /// }
    /// ```
    ///
    /// - Parameter timeout: how long to wait; zero or less only checks.
    /// - Returns: the value.
    /// - Throws: ``ResponseError/timedOut`` when the response is not done in time; otherwise the
    ///   response's failure.
    public func wait(timeout: Duration) throws -> Value {
        guard let result = waitForResult(deadline: .now + timeout) else {
            throw ResponseError.timedOut
        }
        return try result.get()
    }

    /// Waits until the response is done or `deadline` passes; `nil` on timeout.
    func waitForResult(deadline: ContinuousClock.Instant?) -> Result<Value, any Error>? {
        if let finished = currentResult {
            markFailureObserved()
            return finished
        }

        let semaphore = DispatchSemaphore(value: 0)
        let onMainThread = Thread.isMainThread
        if deadline == nil, !onMainThread, MainQueue.isCurrent {
            ResponseDiagnostics.report(
                .mainQueueBlocked,
                "a blocking wait on \(self) blocks the main queue from a thread that is not the main "
                    + "thread, so it cannot keep the main queue running: if the work needs the main "
                    + "queue, it can never finish (await get() instead, or wait off the main queue)",
                file: file,
                line: line
            )
        }
        register(
            .waiter { _ in
                semaphore.signal()
                // Wakes the main run loop if the waiter sleeps in it.
                if onMainThread { DispatchQueue.main.async {} }
            }
        )
        let inTask = withUnsafeCurrentTask { $0 != nil }
        let waiter = BlockingWait(semaphore: semaphore, deadline: deadline, inTask: inTask, response: self)
        switch onMainThread ? waiter.runMainLoop() : waiter.block() {
        case .done:
            // Only a wait that saw the outcome observed it: a timed-out one did not.
            markFailureObserved()
            return currentResult
        case .timedOut:
            return nil
        case .taskCancelled:
            return .failure(CancellationError())
        }
    }
}

/// One blocking wait: on a semaphore, or by running the main run loop until the semaphore is signalled.
private struct BlockingWait<Value: Sendable> {
    let semaphore: DispatchSemaphore
    let deadline: ContinuousClock.Instant?
    /// The wait runs inside a Swift concurrency task: it then wakes every few milliseconds to
    /// honour the task's cancellation, which a semaphore cannot see.
    let inTask: Bool
    /// For the long-wait report only: formatting it costs more than the whole wait otherwise.
    let response: Response<Value>
    let start = ContinuousClock.now

    enum Outcome {
        case done
        case timedOut
        case taskCancelled
    }

    /// How often a wait inside a task looks at the task's cancellation.
    private static var cancellationCheckInterval: Duration { .milliseconds(20) }

    /// When to stop waiting next: the deadline, the moment to report a long wait, or the next
    /// look at the task's cancellation, whichever comes first.
    private func nextStop(warned: Bool) -> ContinuousClock.Instant? {
        var stop = deadline ?? (warned ? nil : start + ResponseDiagnostics.longWaitThreshold)
        if inTask {
            let check = ContinuousClock.now + Self.cancellationCheckInterval
            stop = stop.map { min($0, check) } ?? check
        }
        return stop
    }

    private static var taskIsCancelled: Bool {
        withUnsafeCurrentTask { $0?.isCancelled ?? false }
    }

    /// After a wake-up without the response: what to do next.
    private func afterWakeUp(warned: inout Bool) -> Outcome? {
        if inTask, Self.taskIsCancelled { return .taskCancelled }
        if let deadline {
            return ContinuousClock.now >= deadline ? .timedOut : nil
        }
        if !warned, ContinuousClock.now >= start + ResponseDiagnostics.longWaitThreshold {
            warned = true
            reportLongWait()
        }
        return nil
    }

    private func reportLongWait() {
        ResponseDiagnostics.report(
            .longWait,
            "a blocking wait on \(response) has waited over \(ResponseDiagnostics.longWaitThreshold) "
                + "and goes on; if the work needs the thread or queue this wait blocks, it can never finish",
            file: response.file,
            line: response.line
        )
    }

    /// Blocks the thread on the semaphore.
    func block() -> Outcome {
        var warned = false
        while true {
            guard let stop = nextStop(warned: warned) else {
                semaphore.wait()
                return .done
            }
            if semaphore.wait(timeout: Self.dispatchTime(stop)) == .success { return .done }
            if let outcome = afterWakeUp(warned: &warned) { return outcome }
        }
    }

    /// Runs the main run loop, which drains `DispatchQueue.main`, until the semaphore is signalled.
    func runMainLoop() -> Outcome {
        var warned = false
        while true {
            if semaphore.wait(timeout: .now()) == .success { return .done }
            let stop = nextStop(warned: warned)
            if let stop, stop <= .now {
                if let outcome = afterWakeUp(warned: &warned) { return outcome }
                continue
            }
            let limit = stop.map { Date(timeIntervalSinceNow: Self.seconds(until: $0)) } ?? .distantFuture
            if !RunLoop.main.run(mode: .default, before: limit) {
                // The run loop cannot run here (we are inside a main-queue job, which the run loop
                // does not drain re-entrantly): fall back to blocking, with the long-wait report.
                return block()
            }
        }
    }

    private static func seconds(until instant: ContinuousClock.Instant) -> Double {
        let remaining = ContinuousClock.now.duration(to: instant)
        let (seconds, attoseconds) = remaining.components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }

    private static func dispatchTime(_ instant: ContinuousClock.Instant) -> DispatchTime {
        let nanoseconds = seconds(until: instant) * 1e9
        return .now() + .nanoseconds(Int(min(nanoseconds, Double(Int.max / 2))))
    }
}
