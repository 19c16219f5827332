import Dispatch

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
    @inlinable
    @discardableResult
    public func onCompletion(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping (Value) -> Void
    ) -> Response<Value> {
        if let isolation, needsIsolationWrapper(for: isolation) {
            register(.success(Self.isolate(body, to: isolation)))
        } else {
            register(.success(body))
        }
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
    @inlinable
    @discardableResult
    public func onFailure(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping (any Error) -> Void
    ) -> Response<Value> {
        if let isolation, needsIsolationWrapper(for: isolation) {
            register(.failure(Self.isolate(body, to: isolation)))
        } else {
            register(.failure(body))
        }
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
    @inlinable
    @discardableResult
    public func onResult(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping (Result<Value, any Error>) -> Void
    ) -> Response<Value> {
        if let isolation, needsIsolationWrapper(for: isolation) {
            register(.result(Self.isolate(body, to: isolation)))
        } else {
            register(.result(body))
        }
        return self
    }

    /// Whether a callback formed on `isolation` must be wrapped to run there: not when it is the
    /// main actor and this response delivers on the main queue anyway.
    @inlinable
    func needsIsolationWrapper(for isolation: any Actor) -> Bool {
        if case .main = executor.kind, isolation === MainActor.shared { return false }
        return true
    }

    /// Wraps a callback formed on an actor so that it runs on that actor: on the main queue for
    /// the main actor (here when already there), through a task for any other actor.
    @usableFromInline
    static func isolate<Argument: Sendable>(
        _ body: @escaping (Argument) -> Void,
        to actor: any Actor
    ) -> (Argument) -> Void {
        let callback = IsolatedCallback(body: body)
        if actor === MainActor.shared {
            return { argument in
                if MainQueue.isCurrent {
                    callback.body(argument)
                } else {
                    DispatchQueue.main.async { callback.body(argument) }
                }
            }
        }
        return { argument in
            Task { await invoke(callback, with: argument, isolatedTo: actor) }
        }
    }

    private static func invoke<Argument: Sendable>(
        _ callback: IsolatedCallback<Argument>,
        with argument: Argument,
        isolatedTo actor: isolated any Actor
    ) {
        callback.body(argument)
    }
}

/// A callback formed on an actor, carried to that actor.
///
/// Safety of `@unchecked Sendable`: `body` may be non-`Sendable` because it is isolated to the
/// actor it was formed on; ``Response/isolate(_:to:)`` only ever calls it on that actor (on the
/// main queue for the main actor, or inside a function isolated to the actor), so it never runs
/// concurrently with the actor's other work.
struct IsolatedCallback<Argument>: @unchecked Sendable {
    let body: (Argument) -> Void
}
