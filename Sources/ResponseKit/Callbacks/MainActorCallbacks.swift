extension Response {
    /// The response's callbacks for `@MainActor` code: they run on the main actor and may use its
    /// state directly.
    ///
    /// The shortest way for a presenter or a view model to observe a response:
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct Profile: Sendable { let name: String }
    ///
    /// @MainActor final class ProfilePresenter {
    ///     var title = ""
    ///     var errorText: String?
    ///
    ///     func present(_ response: Response<Profile>) {
    ///         response.mainActor
    ///             .onCompletion { profile in self.title = profile.name }
    ///             .onFailure { error in self.errorText = "\(error)" }
    ///     }
    /// }
    /// ```
    ///
    /// The callbacks run exactly once, on the main queue, after the callbacks registered before
    /// them; inline when the response delivers inline (``ResponseExecutor/immediate``) and the
    /// caller is already on the main queue. Only `@MainActor` code can reach this view, so the
    /// compiler checks what the callbacks touch.
    @MainActor
    public var mainActor: MainActorCallbacks<Value> {
        MainActorCallbacks(response: self)
    }
}

/// Callbacks that run on the main actor: a `@MainActor` view of a ``Response``, from
/// ``Response/mainActor``.
///
/// The view exists because a callback that may run on any thread must be `@Sendable`, and a
/// `@Sendable` closure cannot touch main-actor state; this view's callbacks are `@MainActor`
/// closures instead, which may, and ResponseKit runs them only on the main actor (checked at run
/// time with `MainActor.assumeIsolated`).
@MainActor
public struct MainActorCallbacks<Value: Sendable> {
    /// The response observed.
    public let response: Response<Value>

    /// Runs `body` on the main actor with the value once the response succeeds; never on failure.
    ///
    /// - Parameter body: what to do with the value.
    /// - Returns: this view, to chain ``onFailure(_:)``.
    @discardableResult
    public func onCompletion(_ body: @escaping @MainActor (Value) -> Void) -> Self {
        response.addCallback(.mainActorSuccess(body))
        return self
    }

    /// Runs `body` on the main actor with the error once the response fails, cancellation
    /// included. Registering it marks the failure as observed.
    ///
    /// - Parameter body: what to do with the error.
    /// - Returns: this view, to chain ``onCompletion(_:)``.
    @discardableResult
    public func onFailure(_ body: @escaping @MainActor (any Error) -> Void) -> Self {
        response.addCallback(.mainActorFailure(body))
        return self
    }

    /// Runs `body` on the main actor with the result once the response is done.
    ///
    /// - Parameter body: what to do with the result.
    /// - Returns: this view.
    @discardableResult
    public func onResult(_ body: @escaping @MainActor (Result<Value, any Error>) -> Void) -> Self {
        response.addCallback(.mainActorResult(body))
        return self
    }
}
