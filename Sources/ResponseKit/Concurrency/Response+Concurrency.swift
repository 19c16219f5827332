extension Response {
    /// The value, awaited without blocking a thread: the Swift concurrency bridge.
    ///
    /// ```swift
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
    /// `CancellationError` and gives up this task's claim on the response: when no derived
    /// response or other task still waits on it, the response is cancelled too, so its work
    /// can stop.
    ///
    /// - Returns: the value.
    /// - Throws: the response's failure, or `CancellationError` when the task was cancelled.
    public func get() async throws -> Value {
        if let result = currentResult {
            markFailureObserved()
            return try result.get()
        }
        addClaim()
        let waiter = AwaitingTask<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if waiter.install(continuation) {
                    register(.observer { result, _ in waiter.resume(with: result) })
                }
            }
        } onCancel: {
            if waiter.resume(with: .failure(CancellationError())) {
                releaseClaim()
            }
        }
    }

    /// The result, awaited without blocking a thread. Never throws: the failure is in the result.
    ///
    /// Cancellation works as for ``get()``; a cancelled task gets `.failure(CancellationError())`.
    ///
    /// - Returns: the result.
    public func getResult() async -> Result<Value, any Error> {
        do {
            return .success(try await get())
        } catch {
            return .failure(error)
        }
    }

    /// Makes a response from async work, run in a new `Task`: the bridge from Swift concurrency.
    ///
    /// ```swift
    /// func fetchUser() -> Response<User> {
    ///     Response { try await api.user() }
    /// }
    /// ```
    ///
    /// Cancelling the response cancels the task; the work sees it through `Task.isCancelled`
    /// or `CancellationError` from the calls it awaits.
    ///
    /// - Parameters:
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - priority: the task's priority.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - operation: the work. Its return value succeeds the response; its error fails it.
    public convenience init(
        executor: ResponseExecutor = .main,
        priority: TaskPriority? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ operation: sending @escaping @isolated(any) () async throws -> Value
    ) {
        self.init(pendingOn: executor, file: file, line: line)
        let resolver = Resolver(self)
        let task = Task(priority: priority) {
            do {
                resolver.resolveIfPending(with: .success(try await operation()))
            } catch {
                resolver.resolveIfPending(with: .failure(error))
            }
        }
        resolver.onCancel { task.cancel() }
    }
}

/// The one continuation of an awaiting task, resumed exactly once: by the response, or by the
/// task's cancellation, whichever comes first.
private final class AwaitingTask<Value: Sendable>: Sendable {
    private enum State {
        case waiting
        case installed(CheckedContinuation<Value, any Error>)
        case resumed
        case cancelledEarly
    }

    private let state = LockedBox.make(State.waiting)

    /// Stores the continuation; returns `false` (after resuming it) if the task was already cancelled.
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if case .cancelledEarly = state { return true }
            state = .installed(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Resumes the continuation unless that already happened; returns whether this call did it.
    @discardableResult
    func resume(with result: Result<Value, any Error>) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>?? in
            switch state {
            case .waiting:
                state = .cancelledEarly
                return .some(nil)
            case .installed(let continuation):
                state = .resumed
                return continuation
            case .resumed, .cancelledEarly:
                return nil
            }
        }
        guard let continuation else { return false }
        continuation?.resume(with: result)
        return true
    }
}
