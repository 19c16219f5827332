import Dispatch

/// The part of a response that changes under its lock.
///
/// The invariant that needs the lock spans the whole enum: a response is either pending with its
/// callbacks or done with its result, never both, so a callback is stored exactly while there
/// is no result to give it, and delivered exactly once.
@usableFromInline
enum ResponseStatus<Value: Sendable> {
    /// Waiting; callbacks in registration order.
    case pending(CallbackList<Value>)
    /// Finished, and the completing thread is still delivering the callbacks registered before.
    /// Callbacks registered now wait in ``ResponseExtras/late`` (kept out of this enum so that it
    /// stays 24 bytes) and that thread delivers them after the earlier ones, so registration
    /// order holds even for a callback registered in that window.
    case delivering(Result<Value, any Error>)
    /// Finished and delivered; the first result, which never changes again.
    case done(Result<Value, any Error>)
}

/// The rarely used part of a response's state, allocated on first use: the work's cancellation
/// handlers, the responses a combinator waits on beyond the first, and callbacks registered while
/// the completing thread delivers.
@usableFromInline
final class ResponseExtras<Value: Sendable> {
    var cancellationHandlers: [@Sendable () -> Void] = []
    var upstreams: [any ClaimHolder] = []
    @usableFromInline var late: CallbackList<Value> = .empty

    @usableFromInline init() {}
}

/// One callback registered on a response.
///
/// Safety of `@unchecked Sendable`: the closures may be non-`Sendable`, because they are formed
/// in the registering code's isolation, so that `@MainActor` code can touch its own state. A
/// callback crosses threads only inside its response, which stores it under the lock and hands
/// it out exactly once; nothing else keeps a reference. Callbacks formed on an actor are wrapped
/// at registration (``Response/isolate(_:to:)``) so they run on that actor: that part is proved.
/// Callbacks formed in nonisolated code run on the response's executor, and there the compiler
/// cannot check what they capture: this is a documented contract (see `onCompletion`: capture
/// only what may be shared with another thread), not a proof. It is the price of letting
/// main-actor presenters write `response.onCompletion { self.title = $0 }` with no warning;
/// every sound alternative we tried (`sending`, `@Sendable` with `#isolation`, overloading by
/// isolation, `@isolated(any)`) either rejects that code or cannot call the callback
/// synchronously, which in-order delivery on `.immediate` needs.
@usableFromInline
enum ResponseCallback<Value: Sendable>: @unchecked Sendable {
    /// Success only, on the executor.
    case success((Value) -> Void)
    /// Failure only (cancellation included), on the executor.
    case failure((any Error) -> Void)
    /// Either outcome, on the executor.
    case result((Result<Value, any Error>) -> Void)
    /// Either outcome, inline on the completing thread whatever the executor: internal observers
    /// (blocking waiters, derived responses) that must not wait for a queue.
    case inline((Result<Value, any Error>) -> Void)
    /// Like `inline`, but it does not count as observing a failure: a blocking waiter, which marks
    /// the failure observed itself only if it sees the outcome (not when it times out).
    case waiter((Result<Value, any Error>) -> Void)

    /// Whether the callback counts as someone looking at a failure.
    @inlinable
    var observesFailure: Bool {
        switch self {
        case .success, .waiter: false
        case .failure, .result, .inline: true
        }
    }

    /// Calls the closure on the current thread, if it wants this result.
    @inlinable
    func invoke(_ result: Result<Value, any Error>) {
        switch (self, result) {
        case (.success(let body), .success(let value)): body(value)
        case (.failure(let body), .failure(let error)): body(error)
        case (.result(let body), _), (.inline(let body), _), (.waiter(let body), _): body(result)
        default: break
        }
    }

    /// Whether the callback runs at all for `result`: a delivery is only scheduled for those that do.
    @inlinable
    func accepts(_ result: Result<Value, any Error>) -> Bool {
        switch (self, result) {
        case (.success, .failure), (.failure, .success): false
        default: true
        }
    }
}

/// The callbacks of a pending response, without an array for the common case of one.
@usableFromInline
enum CallbackList<Value: Sendable> {
    case empty
    case one(ResponseCallback<Value>)
    case many([ResponseCallback<Value>])

    @inlinable
    mutating func append(_ callback: ResponseCallback<Value>) {
        switch self {
        case .empty:
            self = .one(callback)
        case .one(let first):
            self = .many([first, callback])
        case .many(var callbacks):
            self = .empty  // drop our reference so the append below does not copy the array
            callbacks.append(callback)
            self = .many(callbacks)
        }
    }

    /// Whether any callback would see a failure.
    @inlinable
    var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }

    @inlinable
    var observesFailure: Bool {
        switch self {
        case .empty: false
        case .one(let callback): callback.observesFailure
        case .many(let callbacks): callbacks.contains { $0.observesFailure }
        }
    }
}

/// Something a derived response holds a claim on: a ``Response`` of any value type.
@usableFromInline
protocol ClaimHolder: AnyObject, Sendable {
    /// Records that one more derived response or task waits for this response.
    func addClaim()
    /// Gives up one claim; cancels the response when it was the last one and the response is pending.
    func releaseClaim()
}
