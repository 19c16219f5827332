import CResponseKit

extension Response {
    /// The value, awaited without blocking a thread: the Swift concurrency bridge.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct Screen { let user: String }
    /// struct Interactor { func fetchUser() -> Response<String> { Response(on: .global()) { "Ada" } } }
    /// let interactor = Interactor()
    ///
    /// func loadScreen() async throws -> Screen {
    ///     let user = try await interactor.fetchUser().get()
    ///     return Screen(user: user)
    /// }
    /// ```
    ///
    /// Named like swift-nio's `EventLoopFuture.get()`, because the property ``value`` is the
    /// blocking read and a property cannot be both blocking and `async`.
    ///
    /// **Cancellation.** Cancelling the awaiting task ends the wait at once with
    /// `CancellationError`, takes the task off the response (a response that outlives many
    /// cancelled awaits holds none of them), and gives up this task's claim on it: when nobody
    /// else waits for it (no derived response, other task, callback or blocking read), the
    /// response is cancelled too, so its work can stop. "Nobody else" is counted at that moment:
    /// a second task that has not started awaiting yet does not keep the response, and then gets
    /// `CancellationError` too; a response that must outlive its awaits needs a callback or a
    /// derived response of its own. A task cancelled before it awaits a response that is already
    /// done gets the result.
    ///
    /// **Isolation.** It runs on the caller's actor (`nonisolated(nonsending)`): awaiting from the
    /// main actor does not hop to the global executor and back, and the task resumes where it
    /// awaited. On the main actor it returns, as a blocking read does, once the main-queue
    /// callbacks registered before it (`.main` and main-actor ones: a presenter's) have run, so a
    /// `@MainActor` test can await a response and then check what its presenter shows, holding no
    /// thread while it waits.
    ///
    /// - Returns: the value.
    /// - Throws: the response's failure, or `CancellationError` when the task was cancelled.
    @inlinable  // specialised for the caller's value type: unspecialised, an await spent a third of
    // its instructions looking up generic metadata (Benchmarks/README.md, W8)
    nonisolated(nonsending) public func get() async throws -> Value {
        // Resumed on the main queue (a `@MainActor` caller), the main-queue deliveries queued
        // before the outcome run first, as after a blocking read: the caller finds the main-actor
        // callbacks registered before its await already run. One relaxed load otherwise.
        defer { MainQueueJobs.runJobsEnqueuedSoFarIfOnMainQueue() }
        if let result = resultForAwaitAtOnce() { return try result.get() }
        // The task waits as an entry of the response's own list, with no object of its own:
        // whoever takes the entry out under the response's lock resumes it, exactly once. The
        // completion takes it and resumes the task with the result (no second read, which would
        // take the lock while the completion still delivers); a cancellation takes it, resumes
        // the task with `CancellationError` and gives up the claim the registration added.
        let identity = rk_next_wait_identity()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                if let delivered = addAwaitingTask(continuation, identity: identity) {
                    // Delivered meanwhile: nothing registered, so the result is read here.
                    if case .failure = delivered { markFailureObserved() }
                    continuation.resume(with: delivered)
                } else if Task.isCancelled {
                    // A cancellation whose handler ran before the entry was there found nothing to
                    // take. It is seen here: the runtime sets the task's cancelled flag before it
                    // runs the handler, and the handler's removal took the response's lock, which
                    // the registration above took after it. (So `cancelAwaitingTask` must always
                    // take the lock: a lock-free shortcut there would lose this cancellation.)
                    cancelAwaitingTask(identity)
                }
            }
        } onCancel: {
            cancelAwaitingTask(identity)
        }
    }

    /// The outcome an await takes without suspending: a delivered response's, or a done one's
    /// still being delivered, except on the main queue. There the await joins the delivery, as a
    /// blocking read does: it resumes once the callbacks registered before it are handed out, so
    /// that ``get()`` can run their main-queue jobs before it returns.
    @inlinable
    func resultForAwaitAtOnce() -> Result<Value, any Error>? {
        guard flags & ResponseFlags.delivered == 0, isDone, MainQueue.isCurrent else { return checkResult() }
        return nil
    }

    /// Takes the cancelled awaiting task `identity` off the response, if the completion did not
    /// take it first: resumes it with `CancellationError` and gives up its claim, which cancels
    /// the response when nobody else waits for it. A second call finds nothing.
    @usableFromInline
    func cancelAwaitingTask(_ identity: UInt64) {
        guard let continuation = removeAwaitingTask(identity) else { return }
        continuation.resume(throwing: CancellationError())
        // Leave nothing behind: a response that outlives many cancelled awaits keeps none.
        releaseClaim()
    }

    /// The result, awaited without blocking a thread. Never throws: the failure is in the result.
    ///
    /// Cancellation works as for ``get()``; a cancelled task gets `.failure(CancellationError())`.
    ///
    /// - Returns: the result.
    nonisolated(nonsending) public func getResult() async -> Result<Value, any Error> {
        do {
            return .success(try await get())
        } catch {
            return .failure(error)
        }
    }

    /// Makes a response from async work, run in a new `Task`: the bridge from Swift concurrency.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct User: Sendable { let name: String }
    /// struct API: Sendable { func user() async throws -> User { User(name: "Ada") } }
    /// let api = API()
    ///
    /// func fetchUser() -> Response<User> {
    ///     Response { try await api.user() }
    /// }
    /// ```
    ///
    /// Cancelling the response cancels the task; the work sees it through `Task.isCancelled`
    /// or `CancellationError` from the calls it awaits.
    ///
    /// The work keeps the isolation it is written with: `Response { @Sendable @MainActor in ... }`
    /// runs on the main actor. A closure that says nothing runs off the main actor, even in a
    /// target with main-actor isolation by default (Xcode 26): there, what it calls without
    /// `await` must be `nonisolated`, as gateways and interactors are (<doc:MainActorByDefault>).
    ///
    /// - Note: Swift 6.3 rejects a `@MainActor in` closure that awaits here ("pattern that the
    ///   region-based isolation checker does not understand"); `@Sendable @MainActor in` compiles.
    ///
    /// - Parameters:
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - priority: the task's priority.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - operation: the work. Its return value succeeds the response; its error fails it.
    @inlinable  // specialised for the value type, as `get()` is: no metadata lookups per request
    public convenience init(
        executor: ResponseExecutor = .main,
        priority: TaskPriority? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ operation: sending @escaping @isolated(any) () async throws -> Value
    ) {
        self.init(pendingOn: executor, file: file, line: line)
        // No resolver (nor its handle, an allocation), as for `Response(on:)`: the task holds the
        // response, and Swift runs every task it makes to its end, so the response cannot be
        // abandoned; a cancellation that wins the race keeps its result.
        let task = Task(priority: priority) { [self] in
            do {
                finish(with: .success(try await operation()), how: .racing)
            } catch {
                finish(with: .failure(error), how: .racing)
            }
        }
        addCancellationHandler { task.cancel() }
    }
}
