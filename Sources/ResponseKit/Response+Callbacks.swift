extension Response {
    /// Runs `body` with the value once the response succeeds.
    ///
    /// The callback runs exactly once, on the response's executor, after the callbacks registered
    /// before it. It runs even when registered after the response finished. It never runs when the
    /// response fails or is cancelled.
    ///
    /// **Isolation.** The callback takes the isolation of the code that registers it, passed as
    /// `isolation` (leave the default, `#isolation`):
    /// - From `@MainActor` code (a presenter, a view model) the closure is main-actor isolated and
    ///   may use the actor's state directly. It runs on the main queue even when the response's
    ///   executor is another one.
    /// - From another actor, the closure runs on that actor, after an asynchronous hop.
    /// - From nonisolated code the closure runs on the response's executor; as with any callback
    ///   that crosses threads, capture only what is safe to share with that thread.
    ///
    /// ```swift
    /// @MainActor final class ProfilePresenter {
    ///     var title = ""
    ///     func present(_ response: Response<Profile>) {
    ///         response.onCompletion { profile in self.title = profile.name }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: the registering code's isolation. Leave the default.
    ///   - body: what to do with the value.
    /// - Returns: the response itself, to chain ``onFailure(isolation:_:)``.
    @discardableResult
    public func onCompletion(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping (Value) -> Void
    ) -> Response<Value> {
        register(ResponseCallback(body: .success(body), isolation: isolation, isInline: false))
        return self
    }

    /// Runs `body` with the error once the response fails, cancellation included.
    ///
    /// Exactly once, on the response's executor, in registration order, even when registered after
    /// the failure. Registering it marks the failure as observed for ``ResponseDiagnostics``.
    /// Isolation works as for ``onCompletion(isolation:_:)``.
    ///
    /// ```swift
    /// response.onFailure { error in
    ///     if error is CancellationError { return }
    ///     show(error)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: the registering code's isolation. Leave the default.
    ///   - body: what to do with the error; `CancellationError` when the response was cancelled.
    /// - Returns: the response itself, to chain ``onCompletion(isolation:_:)``.
    @discardableResult
    public func onFailure(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping (any Error) -> Void
    ) -> Response<Value> {
        register(ResponseCallback(body: .failure(body), isolation: isolation, isInline: false))
        return self
    }

    /// Runs `body` with the result once the response is done, whatever the outcome.
    ///
    /// Exactly once, on the response's executor, in registration order. Isolation works as for
    /// ``onCompletion(isolation:_:)``.
    ///
    /// - Parameters:
    ///   - isolation: the registering code's isolation. Leave the default.
    ///   - body: what to do with the result.
    /// - Returns: the response itself.
    @discardableResult
    public func onResult(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping (Result<Value, any Error>) -> Void
    ) -> Response<Value> {
        register(ResponseCallback(body: .result(body), isolation: isolation, isInline: false))
        return self
    }
}
