/// One callback registered on a response.
///
/// `Sendable` by the compiler's check: every closure is `@Sendable` (it may run on another
/// thread) or `@MainActor` (it runs only on the main actor, which the delivery checks at run
/// time with `MainActor.assumeIsolated`).
@usableFromInline
enum ResponseCallback<Value: Sendable>: Sendable {
    /// Success only, on the response's executor.
    case success(@Sendable (Value) -> Void)
    /// Failure only (cancellation included), on the response's executor.
    case failure(@Sendable (any Error) -> Void)
    /// Either outcome, on the response's executor.
    case result(@Sendable (Result<Value, any Error>) -> Void)
    /// Success only, on the main actor.
    case mainActorSuccess(@MainActor (Value) -> Void)
    /// Failure only, on the main actor.
    case mainActorFailure(@MainActor (any Error) -> Void)
    /// Either outcome, on the main actor.
    case mainActorResult(@MainActor (Result<Value, any Error>) -> Void)
    /// A callback with an executor of its own, whatever the response's is.
    case elsewhere(ExecutorCallback<Value>)
    /// An internal observer (a derived response): runs inline on the completing
    /// thread, whatever the executor, and hands what it unblocks back to the running completion.
    case observer(@Sendable (Result<Value, any Error>, inout CompletionContext) -> Void)
    /// A blocking wait, woken inline. It is not an observation of a failure until the wait sees
    /// the outcome (a wait that gives up saw nothing), and it can be removed.
    case waiter(any ResponseWaiter)
    /// A task suspended in ``Response/get()``: resumed inline with the result, and removed by its
    /// cancellation, which finds it by `identity` (`rk_next_wait_identity`). Whoever takes the
    /// entry out of the list under the response's lock (the completion, or the cancellation's
    /// removal) resumes it, so it is resumed exactly once, with no object of its own to arbitrate.
    /// An observation of a failure: an entry still listed when the response completes can no
    /// longer be removed, so it receives the failure.
    case awaitingTask(UnsafeContinuation<Value, any Error>, identity: UInt64)
    /// Internal clean-up when the response finishes, whatever the outcome (a timer to cancel):
    /// runs inline, and is no observation of a failure, so a failed response nobody else looks at
    /// is still reported as unobserved.
    case cleanup(@Sendable () -> Void)

    /// Whether registering the callback counts as someone looking at a failure.
    @inlinable
    var observesFailure: Bool {
        switch self {
        case .success, .mainActorSuccess, .waiter, .cleanup: false
        case .failure, .result, .mainActorFailure, .mainActorResult, .observer, .awaitingTask: true
        case .elsewhere(let callback): callback.observesFailure
        }
    }

    /// Whether delivering a result that `succeeded` (or not) to this entry queues a main-queue job
    /// when the response's executor is `.main`: a user callback that takes that result.
    @inlinable
    func queuesMainQueueJob(succeeded: Bool) -> Bool {
        switch self {
        case .success, .mainActorSuccess: succeeded
        case .failure, .mainActorFailure: !succeeded
        case .result, .mainActorResult: true
        case .elsewhere, .observer, .waiter, .awaitingTask, .cleanup: false
        }
    }

    /// Whether this entry is `waiter`.
    @inlinable
    func isWaiter(_ waiter: any ResponseWaiter) -> Bool {
        if case .waiter(let candidate) = self { return candidate === waiter }
        return false
    }

    /// Whether this entry is the awaiting task with `identity`.
    @inlinable
    func isAwaitingTask(_ identity: UInt64) -> Bool {
        if case .awaitingTask(_, let candidate) = self { return candidate == identity }
        return false
    }
}

/// A user callback with its own executor (``Response/onCompletion(on:_:)`` and its kin), boxed so
/// that the common callback stays small.
@usableFromInline
final class ExecutorCallback<Value: Sendable>: Sendable {
    @usableFromInline let executor: ResponseExecutor
    @usableFromInline let callback: ResponseCallback<Value>

    @inlinable
    init(executor: ResponseExecutor, callback: ResponseCallback<Value>) {
        self.executor = executor
        self.callback = callback
    }

    @inlinable
    var observesFailure: Bool { callback.observesFailure }
}

/// The callbacks of a response in registration order, without an array for the common case of one.
@usableFromInline
enum CallbackList<Value: Sendable>: Sendable {
    case empty
    case one(ResponseCallback<Value>)
    case many([ResponseCallback<Value>])

    @inlinable @inline(__always)
    mutating func append(_ callback: consuming ResponseCallback<Value>) {
        switch self {
        case .empty:
            self = .one(consume callback)
        case .one(let first):
            self = .many([first, consume callback])
        case .many(var callbacks):
            self = .empty  // drop our reference so the append below does not copy the array
            callbacks.append(consume callback)
            self = .many(callbacks)
        }
    }

    @inlinable
    var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }

    /// Whether any callback counts as looking at a failure.
    @inlinable
    var observesFailure: Bool {
        switch self {
        case .empty: false
        case .one(let callback): callback.observesFailure
        case .many(let callbacks): callbacks.contains { $0.observesFailure }
        }
    }

    /// Whether delivering a result that `succeeded` (or not) queues a main-queue job for some
    /// entry, when the response's executor is `.main`.
    @inlinable
    func queuesMainQueueJob(succeeded: Bool) -> Bool {
        switch self {
        case .empty: false
        case .one(let callback): callback.queuesMainQueueJob(succeeded: succeeded)
        case .many(let callbacks): callbacks.contains { $0.queuesMainQueueJob(succeeded: succeeded) }
        }
    }

    /// Removes the first callback that `matches`, and returns it.
    @inlinable
    mutating func removeFirst(where matches: (ResponseCallback<Value>) -> Bool) -> ResponseCallback<Value>? {
        switch self {
        case .empty:
            return nil
        case .one(let callback):
            guard matches(callback) else { return nil }
            self = .empty
            return callback
        case .many(var callbacks):
            guard let index = callbacks.firstIndex(where: matches) else { return nil }
            self = .empty  // drop our reference so the removal below does not copy the array
            let removed = callbacks.remove(at: index)
            self = callbacks.isEmpty ? .empty : .many(callbacks)
            return removed
        }
    }
}
