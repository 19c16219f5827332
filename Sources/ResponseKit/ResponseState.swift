/// Everything about a response that changes, guarded by one lock.
///
/// The invariant that needs the lock spans two fields: once `result` is set, `callbacks` is empty
/// and stays empty, because a late callback is delivered at once instead of being stored.
struct ResponseState<Value: Sendable> {
    /// The outcome; `nil` while pending. The first one wins.
    var result: Result<Value, any Error>?
    /// Callbacks waiting for the outcome, in registration order.
    var callbacks: CallbackList<Value> = .empty
    /// Handlers the work registered to hear about cancellation.
    var cancellationHandlers: [@Sendable () -> Void] = []
    /// Whether ``Response/cancel()`` completed the response.
    var isCancelled = false
    /// Whether anyone has looked at a failure: a failure callback, a blocking read, an await.
    var isFailureObserved = false
    /// How many derived responses and awaiting tasks still want this response's result. When the
    /// last one lets go while the response is pending, the response is cancelled.
    var claims = 0
    /// The responses this one derives from and holds a claim on; released when this one finishes.
    var upstreams: Upstreams = .none

    /// What completing with a result requires the caller to do once the lock is released.
    enum Completion {
        /// The response was already done: report the second result.
        case alreadyDone(first: Result<Value, any Error>)
        /// Run these cancellation handlers, release these claims, deliver these callbacks.
        case deliver(CallbackList<Value>, cancellationHandlers: [@Sendable () -> Void], upstreams: Upstreams)
    }

    /// Records `result` unless the response is done, and hands back the work to do outside the lock.
    mutating func complete(
        with result: Result<Value, any Error>,
        cancelling: Bool
    ) -> Completion {
        if let first = self.result {
            return .alreadyDone(first: first)
        }
        self.result = result
        let callbacks = self.callbacks
        self.callbacks = .empty
        if callbacks.observesFailure { isFailureObserved = true }
        var handlers: [@Sendable () -> Void] = []
        if cancelling {
            isCancelled = true
            handlers = cancellationHandlers
        }
        cancellationHandlers = []
        let upstreams = self.upstreams
        self.upstreams = .none
        return .deliver(callbacks, cancellationHandlers: handlers, upstreams: upstreams)
    }

    /// Stores `callback`, or returns the result it must be given at once when the response is done.
    mutating func register(_ callback: ResponseCallback<Value>) -> Result<Value, any Error>? {
        if callback.observesFailure { isFailureObserved = true }
        guard let result else {
            callbacks.append(callback)
            return nil
        }
        return result
    }
}

/// Something a derived response holds a claim on: a ``Response`` of any value type.
protocol ClaimHolder: AnyObject, Sendable {
    /// Records that one more derived response or task waits for this response.
    func addClaim()
    /// Gives up one claim; cancels the response when it was the last one and the response is pending.
    func releaseClaim()
}

/// The responses a derived response holds claims on, without an array for the common case of one.
enum Upstreams: Sendable {
    case none
    case one(any ClaimHolder)
    case many([any ClaimHolder])

    mutating func append(_ upstream: any ClaimHolder) {
        switch self {
        case .none: self = .one(upstream)
        case .one(let first): self = .many([first, upstream])
        case .many(let all): self = .many(all + [upstream])
        }
    }

    /// Releases the claim held on each upstream.
    func releaseAll() {
        switch self {
        case .none: break
        case .one(let upstream): upstream.releaseClaim()
        case .many(let upstreams): upstreams.forEach { $0.releaseClaim() }
        }
    }
}
