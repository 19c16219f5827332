import CResponseKit
import Dispatch

extension Response {
    /// The value, waiting until the response is done: the blocking-future style.
    ///
    /// Tests use it to be deterministic:
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// let (response, resolver) = Response<Int>.pending()
    /// DispatchQueue.global().async { resolver.succeed(42) }
    /// #expect(try response.value == 42)
    /// ```
    ///
    /// **The main thread does not deadlock on ResponseKit's work.** On the main thread the wait
    /// keeps the main queue going (by running `RunLoop.main`); inside a main-queue job, where the
    /// main queue cannot run anything else, it runs ResponseKit's own main-queue work itself
    /// (`.main` callbacks, main-actor callbacks, `Response(on: .main)` bodies), and if it is still
    /// waiting after ``ResponseDiagnostics/mainQueueBlockedThreshold`` it reports through
    /// ``ResponseDiagnostics`` that work needing the app's other main-queue jobs can never finish.
    /// Elsewhere the wait sleeps on a semaphore, taken from a small pool when someone blocks.
    ///
    /// **A read that returns on the main queue has settled the response.** On the main thread or
    /// inside a main-queue job, it returns only once every `.main` and main-actor callback
    /// registered on this response before the read has run (after ResponseKit's main-queue work
    /// queued before them), whether the response finished before the read or during it: a test
    /// that hands the response to a presenter, reads it, then checks the presenter, passes every
    /// time. Off the main queue the read returns as soon as the response is done. (A read inside
    /// the response's own callbacks, or one whose delivery an earlier callback holds up, cannot
    /// wait for everything: see <doc:Threading#Blocking-reads>.)
    ///
    /// A wait that lasts longer than ``ResponseDiagnostics/longWaitThreshold`` is reported once
    /// and goes on waiting. Use ``wait(timeout:)`` to give up instead.
    ///
    /// In async code prefer `try await response.get()` (see ``get()``), which suspends instead
    /// of blocking a thread of the cooperative pool.
    ///
    /// - Throws: the response's failure; `CancellationError` when it was cancelled.
    @inlinable
    public var value: Value {
        get throws { try waitForResult(deadline: nil)!.get() }
    }

    /// The failure, waiting until the response is done; `nil` when it succeeded.
    ///
    /// Waits like ``value``, on the main thread too.
    @inlinable
    public var error: (any Error)? {
        if case .failure(let error) = waitForResult(deadline: nil)! { return error }
        return nil
    }

    /// The result, waiting until the response is done.
    ///
    /// Waits like ``value``, on the main thread too.
    @inlinable
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
    /// <!-- example: fragment -->
    /// ```swift
    /// let response = Response<String>(on: .global()) { "Ada" }   // say, a slow fetch
    /// do {
    ///     let user = try response.wait(timeout: .seconds(2))
    ///     print("hello, \(user)")
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
        guard let result = timeout > .zero ? waitForResult(deadline: deadline) : checkResultSettled() else {
            throw ResponseError.timedOut
        }
        return try result.get()
    }

    /// The result if done, without waiting; `nil` when pending. Used by `get()` too, which runs
    /// on no particular thread and settles nothing.
    @inlinable
    func checkResult() -> Result<Value, any Error>? {
        guard let finished = currentResult else { return nil }
        markFailureObserved()
        return finished
    }

    /// The result if done, or `nil`, settled as a blocking read returns it: on the main thread or
    /// inside a main-queue job, after the main-queue deliveries registered before the read have
    /// run (a response still delivering on another thread is waited for until it has handed them
    /// out, which takes moments unless a callback holds it up).
    func checkResultSettled() -> Result<Value, any Error>? {
        guard isDone else { return nil }
        return waitForResult(deadline: nil)
    }

    /// Waits until the response is done or `deadline` (uptime nanoseconds) passes; `nil` on timeout.
    ///
    /// On the main thread or inside a main-queue job, the read also **settles** the deliveries
    /// it would otherwise race: it returns only once every callback registered before it has been
    /// handed out (a response wakes its waiters in registration order, so the wait ends when its
    /// own waiter is woken, not when the response is done), and then runs ResponseKit's main-queue
    /// jobs enqueued so far, oldest first: those deliveries, and anything queued before them.
    @inlinable
    func waitForResult(deadline: UInt64?) -> Result<Value, any Error>? {
        if let finished = deliveredResult {
            // Every callback is handed out: what is left is to run the main-queue jobs, when the
            // caller is where they run (one relaxed load otherwise).
            if case .failure = finished { markFailureObserved() }
            MainQueueJobs.runJobsEnqueuedSoFarIfOnMainQueue()
            return finished
        }
        let place = BlockingWait.Place.current
        // Done but still delivering: off the main queue nothing is left to settle; and a read
        // inside that very delivery (one of its callbacks reads it) must not wait for it, since
        // the delivery goes on only once the read returns.
        if isDone, !place.isOnMainQueue || isBeingCompletedOnThisThread { return settled(on: place) }
        // Only a sleeping wait's waiter is recycled: the main run loop's also stops the run loop
        // when woken, and one parked inside a main-queue job hears every job enqueued meanwhile.
        let isPooled = !place.isOnMainQueue
        let waiter =
            isPooled
            ? BlockingWaiterPool.take() : BlockingWaiter(wakesMainRunLoop: place == .mainRunLoop, recordsWake: true)
        defer { if isPooled { BlockingWaiterPool.recycle(waiter) } }
        // A waiting reader holds a claim, as a derived response does: cancelling a response
        // derived from this one does not cancel what the reader waits for (Response+Derive.swift).
        guard addWaiter(waiter) else { return settled(on: place) }
        let inTask = withUnsafeCurrentTask { $0 != nil }
        let wait = BlockingWait(response: self, waiter: waiter, place: place, deadline: deadline, inTask: inTask)
        let outcome = wait.run()
        switch outcome {
        case .done:
            // Only a wait that saw the outcome observed it: a timed-out one did not.
            return settled(on: place)
        case .timedOut, .waitLimitReached:
            // Leave nothing behind. Giving up is not cancelling: the claim goes without cancelling,
            // unless a derived response let go wanting that while this read still waited. A checked
            // test's read that reached its wait limit gives up as a timeout, but thrown, so that
            // the test ends.
            if removeWaiter(waiter) {
                releaseReaderClaim()
                return outcome == .waitLimitReached ? .failure(ResponseError.waitLimitExceeded) : nil
            }
            // Done meanwhile, and its delivery holds the waiter: the wait did not time out. On the
            // main queue, the delivery is waited for (a done response's wait ignores its deadline).
            if place.isOnMainQueue {
                _ = BlockingWait(response: self, waiter: waiter, place: place, deadline: nil, inTask: inTask).run()
            }
            return settled(on: place)
        case .taskCancelled:
            if removeWaiter(waiter) { releaseReaderClaim() }
            return .failure(CancellationError())
        }
    }

    /// Whether this thread is completing the response now: the read runs inside its completion
    /// (a cancellation handler, or a callback, reads it).
    @usableFromInline
    var isBeingCompletedOnThisThread: Bool {
        rk_is_delivering(UInt(bitPattern: ObjectIdentifier(self)))
    }

    /// The result of a response whose delivery has handed out every callback registered before
    /// the read, after running the main-queue jobs enqueued so far when `place` is on the main queue.
    @inlinable
    func settled(on place: BlockingWait.Place) -> Result<Value, any Error>? {
        if place.isOnMainQueue { MainQueueJobs.runJobsEnqueuedSoFar() }
        return checkResult()
    }
}
