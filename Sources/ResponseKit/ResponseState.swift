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

    /// What completing with a result requires the caller to do once the lock is released.
    enum Completion {
        /// The response was already done: report the second result.
        case alreadyDone(first: Result<Value, any Error>)
        /// Deliver these callbacks and run these cancellation handlers.
        case deliver(CallbackList<Value>, cancellationHandlers: [@Sendable () -> Void])
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
        return .deliver(callbacks, cancellationHandlers: handlers)
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
