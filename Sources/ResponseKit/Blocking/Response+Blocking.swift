import Dispatch

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
    /// **The main thread does not deadlock on ResponseKit's work.** On the main thread the wait
    /// keeps the main queue going (by running `RunLoop.main`); inside a main-queue job, where the
    /// main queue cannot run anything else, it runs ResponseKit's own main-queue work itself
    /// (`.main` callbacks, main-actor callbacks, `Response(on: .main)` bodies), and reports
    /// through ``ResponseDiagnostics`` at once that the app's other main-queue work cannot run
    /// meanwhile. Main-queue callbacks, this response's included, may therefore run *during* the
    /// wait. Elsewhere the wait sleeps on a semaphore, taken from a small pool when someone blocks.
    ///
    /// A wait that lasts longer than ``ResponseDiagnostics/longWaitThreshold`` is reported once
    /// and goes on waiting. Use ``wait(timeout:)`` to give up instead.
    ///
    /// In async code prefer `try await response.get()` (see ``get()``), which suspends instead
    /// of blocking a thread of the cooperative pool.
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
    /// Giving up does not cancel the response: call ``cancel()`` for that. A zero or negative
    /// timeout only looks, without waiting (cheap enough to poll). A wait that gives up leaves
    /// nothing behind. To fail the response itself after a time limit, and cancel its work, use
    /// ``timeout(after:scheduler:file:line:)``, which fails with ``ResponseError/deadlineExceeded``.
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
    /// - Throws: ``ResponseError/timedOut`` when the response is not done in time (it goes on);
    ///   otherwise the response's failure.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public func wait(timeout: Duration) throws -> Value {
        let deadline: UInt64? = timeout > .zero ? DispatchScheduler.deadline(after: timeout).uptimeNanoseconds : nil
        guard let result = timeout > .zero ? waitForResult(deadline: deadline) : checkResult() else {
            throw ResponseError.timedOut
        }
        return try result.get()
    }

    /// The result if done, without waiting: a zero timeout.
    func checkResult() -> Result<Value, any Error>? {
        guard let finished = currentResult else { return nil }
        markFailureObserved()
        return finished
    }

    /// Waits until the response is done or `deadline` (uptime nanoseconds) passes; `nil` on timeout.
    func waitForResult(deadline: UInt64?) -> Result<Value, any Error>? {
        if let finished = checkResult() { return finished }
        let place = BlockingWait<Value>.Place.current
        // Only a sleeping wait's waiter is recycled: the main run loop's also stops the run loop
        // when woken, and one parked inside a main-queue job hears every job enqueued meanwhile.
        let isPooled = place == .elsewhere
        let waiter = isPooled ? BlockingWaiterPool.take() : BlockingWaiter(wakesMainRunLoop: place == .mainRunLoop)
        defer { if isPooled { BlockingWaiterPool.recycle(waiter) } }
        guard addWaiter(waiter) else { return checkResult() }
        let inTask = withUnsafeCurrentTask { $0 != nil }
        let wait = BlockingWait(response: self, waiter: waiter, deadline: deadline, inTask: inTask)
        switch wait.run(in: place) {
        case .done:
            // Only a wait that saw the outcome observed it: a timed-out one did not.
            return checkResult()
        case .timedOut:
            // Leave nothing behind; if the response finished meanwhile, the wait did not time out.
            if removeWaiter(waiter) { return nil }
            return checkResult()
        case .taskCancelled:
            _ = removeWaiter(waiter)
            return .failure(CancellationError())
        }
    }
}
