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
    /// response is cancelled too, so its work can stop. A task cancelled before it awaits a response that is already done gets
    /// the result.
    ///
    /// **Isolation.** It runs on the caller's actor (`nonisolated(nonsending)`): awaiting from the
    /// main actor does not hop to the global executor and back, and the task resumes where it
    /// awaited.
    ///
    /// - Returns: the value.
    /// - Throws: the response's failure, or `CancellationError` when the task was cancelled.
    @inlinable  // specialised for the caller's value type: unspecialised, an await spent a third of
    // its instructions looking up generic metadata (Benchmarks/README.md, W8)
    nonisolated(nonsending) public func get() async throws -> Value {
        if let result = checkResult() { return try result.get() }
        addClaim()
        let waiter = AwaitingTask()
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard waiter.install(continuation) else { return }
                if !addWaiter(waiter) {
                    waiter.wake()  // done meanwhile
                } else if waiter.isCancelled {
                    // Cancelled meanwhile, maybe before the waiter was there for the cancellation
                    // to remove: removed here too (a second removal finds nothing).
                    _ = removeWaiter(waiter)
                }
            }
        } onCancel: {
            guard waiter.cancel() else { return }
            // Leave nothing behind: a response that outlives many cancelled awaits keeps none.
            _ = removeWaiter(waiter)
            releaseClaim()
        }
        // Woken, so done.
        return try checkResult()!.get()
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
    /// runs on the main actor.
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

/// The one continuation of an awaiting task, resumed exactly once: by the response (``wake()``),
/// or by the task's cancellation, whichever comes first. Registered on the response as a
/// ``ResponseWaiter``, so that a cancelled await can take itself off it again.
///
/// An `UnsafeContinuation` rather than a checked one (which allocates a canary per await to
/// check at run time what this type proves): a continuation is resumed only by `install`, when
/// it finds the wait already over and so never stores it, or by the one call of `wake`/`cancel`
/// whose transition, under the lock, takes it out of `.installed`; both other states are final,
/// so no second transition can find it. Each continuation is therefore resumed exactly once.
// Safety of `@unchecked Sendable`: `state` is read and written only inside
// `StateWordLock.withLock` on `word` (C11 atomics, which the thread sanitizer sees), in `install`
// and `end`; `word` is the first stored property, so it sits where
// `_getUnsafePointerToStoredProperties` points, and is touched only through those functions.
@usableFromInline
final class AwaitingTask: ResponseWaiter, @unchecked Sendable {
    @usableFromInline
    enum State {
        case waiting
        case installed(UnsafeContinuation<Void, any Error>)
        case woken
        case cancelled
    }

    // A state word and a plain field rather than a `LockedBox<State>`: the box's generic `Mutex`
    // cost a metadata lookup per await.
    @usableFromInline var word = rk_word_make(0)
    @usableFromInline @exclusivity(unchecked) var state = State.waiting

    @usableFromInline
    init() {}

    /// Runs `body` on `state` under the lock.
    private func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        let word = _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: rk_word.self)
        return StateWordLock.withLock(word) { body(&state) }
    }

    /// Stores the continuation; `false` (after resuming it) when the wait is already over.
    @usableFromInline
    func install(_ continuation: UnsafeContinuation<Void, any Error>) -> Bool {
        let over = withLock { state -> State? in
            guard case .waiting = state else { return state }
            state = .installed(continuation)
            return nil
        }
        switch over {
        case nil: return true
        case .woken: continuation.resume()
        default: continuation.resume(throwing: CancellationError())
        }
        return false
    }

    /// The response is done: resumes the task, unless its cancellation came first.
    @usableFromInline
    func wake() {
        end(as: .woken).continuation?.resume()
    }

    /// The task was cancelled: resumes it with `CancellationError`, unless the response came
    /// first. Returns whether this call ended the wait.
    @usableFromInline
    func cancel() -> Bool {
        let (ended, continuation) = end(as: .cancelled)
        continuation?.resume(throwing: CancellationError())
        return ended
    }

    /// Whether the task's cancellation ended the wait.
    @usableFromInline
    var isCancelled: Bool {
        withLock { state in
            if case .cancelled = state { return true }
            return false
        }
    }

    /// Moves to `end` unless the wait is over: whether it did, and the continuation to resume.
    private func end(as end: State) -> (ended: Bool, continuation: UnsafeContinuation<Void, any Error>?) {
        withLock { state in
            switch state {
            case .waiting:
                state = end
                return (true, nil)
            case .installed(let continuation):
                state = end
                return (true, continuation)
            case .woken, .cancelled:
                return (false, nil)
            }
        }
    }
}
