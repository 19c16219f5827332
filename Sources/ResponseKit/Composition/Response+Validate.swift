extension Response {
    /// Fails the response with the error `check` throws; a value that passes goes on unchanged.
    /// The validation decorator of a use case.
    ///
    /// `on:` is the executor that runs `check` (``ResponseExecutor/immediate``, inline, by
    /// default); the new response delivers its callbacks on this response's executor.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct User: Sendable { let email: String, isActive: Bool }
    /// enum SignInError: Error { case accountDisabled }
    /// func signIn(email: String) -> Response<User> { Response(on: .global()) { User(email: email, isActive: false) } }
    ///
    /// let user = signIn(email: "ada@example.com").validate { user in
    ///     guard user.isActive else { throw SignInError.accountDisabled }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - context: where `check` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - check: throws the caller's error when the value is not acceptable.
    /// - Returns: a response that fails when the check throws.
    /// - Note: In a target with main-actor isolation by default (Xcode 26), what `check` calls must
    ///   be `nonisolated`, as gateways and interactors are: see <doc:MainActorByDefault>.
    public func validate(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ check: @escaping @Sendable (Value) throws -> Void
    ) -> Response<Value> {
        map(on: context, file: file, line: line) { value in
            try check(value)
            return value
        }
    }

    /// Fails the response with `error` when `predicate` returns `false`.
    ///
    /// `on:` is the executor that runs `predicate` (``ResponseExecutor/immediate``, inline, by
    /// default); the new response delivers its callbacks on this response's executor.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// enum FormError: Error { case tooYoung }
    /// func readAge() -> Response<Int> { .succeeded(17) }
    ///
    /// let age = readAge().validate(orFailWith: FormError.tooYoung) { $0 >= 18 }
    /// ```
    ///
    /// - Parameters:
    ///   - error: the failure to use when the value is not acceptable.
    ///   - context: where `predicate` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - predicate: whether the value is acceptable.
    /// - Returns: a response that fails with `error` when the predicate says no.
    public func validate(
        orFailWith error: @escaping @autoclosure @Sendable () -> any Error,
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ predicate: @escaping @Sendable (Value) -> Bool
    ) -> Response<Value> {
        validate(on: context, file: file, line: line) { value in
            guard predicate(value) else { throw error() }
        }
    }

    /// Fails the response with ``ResponseError/validationFailed`` when `predicate` returns `false`.
    /// Prefer ``validate(orFailWith:on:file:line:_:)`` to say what was wrong.
    ///
    /// `on:` is the executor that runs `predicate` (``ResponseExecutor/immediate``, inline, by
    /// default); the new response delivers its callbacks on this response's executor.
    ///
    /// - Parameters:
    ///   - context: where `predicate` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - predicate: whether the value is acceptable.
    /// - Returns: a response that fails when the predicate says no.
    public func validate(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ predicate: @escaping @Sendable (Value) -> Bool
    ) -> Response<Value> {
        validate(orFailWith: ResponseError.validationFailed, on: context, file: file, line: line, predicate)
    }
}
