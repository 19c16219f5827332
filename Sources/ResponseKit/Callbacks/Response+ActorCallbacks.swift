extension Response {
    /// Runs `body` on `actor` with the value once the response succeeds: for actor-isolated code
    /// that observes a response and updates its own state.
    ///
    /// `body` receives the actor isolated, so it may use the actor's state; it runs after an
    /// asynchronous hop to the actor, in a new task. So unlike callbacks on an executor, two
    /// callbacks isolated to actors (even to the same one) may run in either order: chain the
    /// second step inside the first `body` when order matters.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct User: Identifiable, Sendable { let id: Int, name: String }
    ///
    /// actor Cache {
    ///     var users: [User.ID: User] = [:]
    ///     func remember(_ response: Response<User>) {
    ///         response.onCompletion(isolatedTo: self) { cache, user in cache.users[user.id] = user }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - actor: the actor to run on.
    ///   - body: what to do with the actor and the value.
    /// - Returns: the response itself.
    @discardableResult
    public func onCompletion<A: Actor>(
        isolatedTo actor: A,
        _ body: @escaping @Sendable (isolated A, Value) -> Void
    ) -> Response<Value> {
        // Success only, inline: not an observer, which would count as looking at a failure and
        // so silence the report of a failure nobody saw.
        let callback = ResponseCallback<Value>.success { value in
            Task { await Self.run(body, on: actor, with: value) }
        }
        addCallback(.elsewhere(ExecutorCallback(executor: .immediate, callback: callback)))
        return self
    }

    /// Runs `body` on `actor` with the result once the response is done.
    ///
    /// Like ``onCompletion(isolatedTo:_:)``, `body` runs in a new task, in no set order with the
    /// response's other actor-isolated callbacks.
    ///
    /// - Parameters:
    ///   - actor: the actor to run on.
    ///   - body: what to do with the actor and the result.
    /// - Returns: the response itself.
    @discardableResult
    public func onResult<A: Actor>(
        isolatedTo actor: A,
        _ body: @escaping @Sendable (isolated A, Result<Value, any Error>) -> Void
    ) -> Response<Value> {
        // An observer (it sees either outcome, inline), yet a user's callback: it waits too.
        addCallback(
            .observer { result, _ in
                Task { await Self.run(body, on: actor, with: result) }
            }
        )
        return self
    }

    private static func run<A: Actor, Argument>(
        _ body: @Sendable (isolated A, Argument) -> Void,
        on actor: isolated A,
        with argument: Argument
    ) {
        body(actor, argument)
    }
}
