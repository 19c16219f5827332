extension Response {
    /// Runs `body` with the value once the response succeeds.
    ///
    /// The callback runs exactly once, on the response's ``executor``, after the callbacks
    /// registered before it. It runs even when registered after the response finished. It never
    /// runs when the response fails or is cancelled.
    ///
    /// `body` is `@Sendable` because it may run on another thread: the compiler rejects one that
    /// captures unprotected mutable state. From `@MainActor` code, observe through ``mainActor``
    /// instead, whose callbacks run on the main actor and may use its state:
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// let response = Response.succeeded("Ada")
    /// let names = Recorder<String>()            // a Sendable sink
    /// response.onCompletion { name in names.record(name) }
    ///
    /// struct Profile: Sendable { let name: String }
    ///
    /// @MainActor final class ProfilePresenter {
    ///     var title = ""
    ///     func present(_ response: Response<Profile>) {
    ///         response.mainActor.onCompletion { profile in self.title = profile.name }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter body: what to do with the value.
    /// - Returns: the response itself, to chain ``onFailure(_:)``.
    @inlinable
    @discardableResult
    public func onCompletion(_ body: consuming @escaping @Sendable (Value) -> Void) -> Response<Value> {
        addCallback(.success(consume body))
        return self
    }

    /// Runs `body` with the error once the response fails, cancellation included.
    ///
    /// Exactly once, on the response's ``executor``, in registration order, even when registered
    /// after the failure. Registering it marks the failure as observed for ``ResponseDiagnostics``.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func report(_ response: Response<Data>) {
    ///     response.onFailure { error in
    ///         if error is CancellationError { return }
    ///         print("failed: \(error)")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter body: what to do with the error; `CancellationError` when the response was cancelled.
    /// - Returns: the response itself, to chain ``onCompletion(_:)``.
    @inlinable
    @discardableResult
    public func onFailure(_ body: consuming @escaping @Sendable (any Error) -> Void) -> Response<Value> {
        addCallback(.failure(consume body))
        return self
    }

    /// Runs `body` with the result once the response is done, whatever the outcome.
    ///
    /// Exactly once, on the response's ``executor``, in registration order.
    ///
    /// - Parameter body: what to do with the result.
    /// - Returns: the response itself.
    @inlinable
    @discardableResult
    public func onResult(_ body: consuming @escaping @Sendable (Result<Value, any Error>) -> Void) -> Response<Value> {
        addCallback(.result(consume body))
        return self
    }

    /// Runs `body` with the value once the response succeeds, delivered through the executor passed
    /// as `on:` rather than the response's own.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// let cacheQueue = DispatchQueue(label: "cache")
    /// func cache(_ response: Response<String>) {
    ///     response.onCompletion(on: .queue(cacheQueue)) { user in print("caching \(user), on cacheQueue") }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where this callback runs.
    ///   - body: what to do with the value.
    /// - Returns: the response itself.
    @discardableResult
    public func onCompletion(
        on executor: ResponseExecutor,
        _ body: @escaping @Sendable (Value) -> Void
    ) -> Response<Value> {
        addCallback(.elsewhere(ExecutorCallback(executor: executor, callback: .success(body))))
        return self
    }

    /// Runs `body` with the error once the response fails, delivered through the executor passed as
    /// `on:` rather than the response's own.
    ///
    /// - Parameters:
    ///   - executor: where this callback runs.
    ///   - body: what to do with the error.
    /// - Returns: the response itself.
    @discardableResult
    public func onFailure(
        on executor: ResponseExecutor,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Response<Value> {
        addCallback(.elsewhere(ExecutorCallback(executor: executor, callback: .failure(body))))
        return self
    }

    /// Runs `body` with the result once the response is done, delivered through the executor passed
    /// as `on:` rather than the response's own.
    ///
    /// - Parameters:
    ///   - executor: where this callback runs.
    ///   - body: what to do with the result.
    /// - Returns: the response itself.
    @discardableResult
    public func onResult(
        on executor: ResponseExecutor,
        _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> Response<Value> {
        addCallback(.elsewhere(ExecutorCallback(executor: executor, callback: .result(body))))
        return self
    }
}

extension ExecutorCallback {
    /// Runs the callback on its own executor.
    @usableFromInline
    func deliver(_ result: Result<Value, any Error>) {
        let executor = self.executor
        switch (callback, result) {
        case (.success(let body), .success(let value)):
            executor.run { body(value) }
        case (.failure(let body), .failure(let error)):
            executor.run { body(error) }
        case (.result(let body), _):
            executor.run { body(result) }
        default:
            break
        }
    }

    /// Runs the callback on its own executor, in the test's scope of `response`, which was made
    /// under the response checks.
    @usableFromInline
    func deliver(_ result: Result<Value, any Error>, inScopeOf response: AnyObject) {
        let executor = self.executor
        switch (callback, result) {
        case (.success(let body), .success(let value)):
            let body = ResponseCheckScopeTable.binding(body, toScopeOf: response)
            executor.run { body(value) }
        case (.failure(let body), .failure(let error)):
            let body = ResponseCheckScopeTable.binding(body, toScopeOf: response)
            executor.run { body(error) }
        case (.result(let body), _):
            let body = ResponseCheckScopeTable.binding(body, toScopeOf: response)
            executor.run { body(result) }
        default:
            break
        }
    }
}
