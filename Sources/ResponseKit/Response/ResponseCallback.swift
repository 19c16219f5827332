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
    /// An internal observer (a derived response, an awaiting task): runs inline on the completing
    /// thread, whatever the executor, and hands what it unblocks back to the running completion.
    case observer(@Sendable (Result<Value, any Error>, inout CompletionContext) -> Void)
    /// A blocking wait or an awaiting task, woken inline. It is not an observation of a failure
    /// until the wait sees the outcome (a wait that gives up saw nothing), and it can be removed.
    case waiter(any ResponseWaiter)

    /// Whether registering the callback counts as someone looking at a failure.
    @inlinable
    var observesFailure: Bool {
        switch self {
        case .success, .mainActorSuccess, .waiter: false
        case .failure, .result, .mainActorFailure, .mainActorResult, .observer: true
        case .elsewhere(let callback): callback.observesFailure
        }
    }

    /// Whether this entry is `waiter`.
    @inlinable
    func isWaiter(_ waiter: any ResponseWaiter) -> Bool {
        if case .waiter(let candidate) = self { return candidate === waiter }
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

    /// Removes `waiter`; returns whether it was there.
    @inlinable
    mutating func remove(_ waiter: any ResponseWaiter) -> Bool {
        switch self {
        case .empty:
            return false
        case .one(let callback):
            guard callback.isWaiter(waiter) else { return false }
            self = .empty
            return true
        case .many(var callbacks):
            guard let index = callbacks.firstIndex(where: { $0.isWaiter(waiter) }) else { return false }
            self = .empty
            callbacks.remove(at: index)
            self = callbacks.isEmpty ? .empty : .many(callbacks)
            return true
        }
    }
}
