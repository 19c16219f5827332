extension Response {
    /// Runs a side effect with the value, then passes the response on unchanged: the
    /// interception decorator of a use case (record the signed-in user, log, cache).
    ///
    /// `on:` is the executor that runs `body` (``ResponseExecutor/immediate``, inline, by default);
    /// the new response delivers its callbacks on this response's executor.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct User: Sendable { let name: String }
    /// func authenticate(_ name: String) -> Response<User> { Response(on: .global()) { User(name: name) } }
    ///
    /// let user = authenticate("ada").intercept { user in print("signed in: \(user.name)") }   // an audit line
    /// ```
    ///
    /// The new response finishes after `body` returns. Failures and cancellation pass through
    /// without calling `body`.
    ///
    /// - Parameters:
    ///   - context: where `body` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - body: the side effect.
    /// - Returns: a response with this response's outcome.
    /// - Note: In a target with main-actor isolation by default (Xcode 26), what `body` calls must
    ///   be `nonisolated`, as gateways and interactors are: see <doc:MainActorByDefault>.
    public func intercept(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable (Value) -> Void
    ) -> Response<Value> {
        derive(on: context, file: file, line: line) { result, derived, completion in
            if case .success(let value) = result { body(value) }
            derived.finishAsLastAct(with: result, of: &completion)
        }
    }

    /// Runs a side effect on either outcome, cancellation included, then passes the response on
    /// unchanged: hide a spinner, close a file.
    ///
    /// `on:` is the executor that runs `body` (``ResponseExecutor/immediate``, inline, by default);
    /// the new response delivers its callbacks on this response's executor.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct User: Sendable { let name: String }
    /// func login(_ name: String) -> Response<User> { Response(on: .global()) { User(name: name) } }
    ///
    /// let user = login("ada").always { _ in print("login attempt") }   // counted, whatever the outcome
    /// ```
    ///
    /// `body` runs exactly once: with this response's outcome, or with `CancellationError` when
    /// the response `always` returns is cancelled first (`body` then runs on the `on:` executor too, and
    /// whatever this response does later is not reported again). Registering it counts as
    /// observing a failure for ``ResponseDiagnostics``.
    ///
    /// - Parameters:
    ///   - context: where `body` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - body: the side effect, given the result.
    /// - Returns: a response with this response's outcome.
    public func always(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> Response<Value> {
        // Two routes may reach `body`: the input's outcome, and the cancellation of `passedOn`,
        // which finishes it first so that `derive` skips the step. Whichever comes first runs it.
        let hasRun = LockedBox.make(false)
        let claimRun: @Sendable () -> Bool = {
            hasRun.withLock { hasRun in
                defer { hasRun = true }
                return !hasRun
            }
        }
        let passedOn: Response<Value> = derive(on: context, file: file, line: line) { result, derived, completion in
            if claimRun() { body(result) }
            derived.finishAsLastAct(with: result, of: &completion)
        }
        passedOn.addCancellationHandler {
            context.run { if claimRun() { body(.failure(CancellationError())) } }
        }
        // `body` sees the failure: that counts as observing it, even if nobody reads `passedOn`.
        passedOn.markFailureObserved()
        return passedOn
    }

    /// Runs a side effect on either outcome, without looking at it: `response.always { hideSpinner() }`.
    ///
    /// `on:` is the executor that runs `body` (``ResponseExecutor/immediate``, inline, by default);
    /// the new response delivers its callbacks on this response's executor.
    ///
    /// - Parameters:
    ///   - context: where `body` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - body: the side effect.
    /// - Returns: a response with this response's outcome.
    public func always(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Response<Value> {
        always(on: context, file: file, line: line) { (_: Result<Value, any Error>) in body() }
    }
}
