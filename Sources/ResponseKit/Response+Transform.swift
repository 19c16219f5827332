extension Response {
    /// Transforms the value; failures and cancellation pass through unchanged.
    ///
    /// `transform` runs once this response succeeds, in a worker context (inline on the thread
    /// that finished this response, or on a global queue if that was the main queue), unless you
    /// pass `context`. An error it throws fails the new response. Cancelling the new response
    /// cancels this one, unless another derived response still waits on it.
    ///
    /// ```swift
    /// let name: Response<String> = fetchUser(id: 7).map { user in user.name }
    /// ```
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; `nil` (the default) for a worker context.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes the new value from this response's value.
    /// - Returns: a response with the transformed value, delivering on this response's executor.
    @inlinable
    public func map<NewValue: Sendable>(
        on context: ResponseExecutor? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Response<NewValue> {
        // Registered directly rather than through `derive`: one closure per step instead of two.
        let (derived, resolver): (Response<NewValue>, ResponseKit.Resolver<NewValue>) =
            makeDerived(claiming: self, file: file, line: line)
        register(
            .inline { result in
                guard !resolver.response.isDone else { return }
                if context == nil, WorkerContext.allowsInlineTransformation {
                    WorkerContext.run {
                        resolver.resolveIfPending(with: result.flatMap { value in Result { try transform(value) } })
                    }
                } else {
                    Self.runTransformation(on: context) {
                        resolver.resolveIfPending(with: result.flatMap { value in Result { try transform(value) } })
                    }
                }
            }
        )
        return derived
    }

    /// Continues with another response made from the value; failures and cancellation pass through.
    ///
    /// ```swift
    /// let user: Response<User> = fetchToken(credentials).flatMap { token in fetchUser(token) }
    /// ```
    ///
    /// Cancelling the new response cancels whichever response it is waiting on at the time.
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; `nil` (the default) for a worker context.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes the next response from this response's value. An error it throws
    ///     fails the new response.
    /// - Returns: a response that finishes as the response `transform` returns does.
    public func flatMap<NewValue: Sendable>(
        on context: ResponseExecutor? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws -> Response<NewValue>
    ) -> Response<NewValue> {
        derive(on: context, file: file, line: line) { result, resolver in
            switch result {
            case .success(let value):
                do {
                    try transform(value).forward(to: resolver)
                } catch {
                    resolver.fail(error)
                }
            case .failure(let error):
                resolver.fail(error)
            }
        }
    }

    /// Turns a failure into a value; a success passes through. Cancellation is not recovered:
    /// a cancelled response stays cancelled.
    ///
    /// ```swift
    /// let avatar = fetchAvatar(user).recover { _ in Avatar.placeholder }
    /// ```
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; `nil` (the default) for a worker context.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes a value from the error, or throws to fail the new response.
    /// - Returns: a response that succeeds with this response's value or the recovered one.
    public func recover(
        on context: ResponseExecutor? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (any Error) throws -> Value
    ) -> Response<Value> {
        derive(on: context, file: file, line: line) { result, resolver in
            switch result {
            case .failure(let error) where !(error is CancellationError):
                resolver.resolve(with: Result { try transform(error) })
            default:
                resolver.resolve(with: result)
            }
        }
    }

    /// Turns a failure into another response, such as a retry against a fallback; a success passes
    /// through. Cancellation is not recovered.
    ///
    /// ```swift
    /// let user = fetchUser(fromCache: id).flatMapError { _ in fetchUser(fromServer: id) }
    /// ```
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; `nil` (the default) for a worker context.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes the fallback response from the error; an error it throws fails the
    ///     new response.
    /// - Returns: a response that succeeds with this response's value or finishes as the fallback.
    public func flatMapError(
        on context: ResponseExecutor? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (any Error) throws -> Response<Value>
    ) -> Response<Value> {
        derive(on: context, file: file, line: line) { result, resolver in
            switch result {
            case .failure(let error) where !(error is CancellationError):
                do {
                    try transform(error).forward(to: resolver)
                } catch {
                    resolver.fail(error)
                }
            default:
                resolver.resolve(with: result)
            }
        }
    }

    /// Replaces a failure with another error, such as a domain error for the presenter; a success
    /// and cancellation pass through.
    ///
    /// ```swift
    /// let user = fetchUser(id).mapError { error in LoginError.network(error) }
    /// ```
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; `nil` (the default) for a worker context.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes the new error.
    /// - Returns: a response that fails with the transformed error.
    public func mapError(
        on context: ResponseExecutor? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (any Error) -> any Error
    ) -> Response<Value> {
        derive(on: context, file: file, line: line) { result, resolver in
            switch result {
            case .failure(let error) where !(error is CancellationError):
                resolver.fail(transform(error))
            default:
                resolver.resolve(with: result)
            }
        }
    }

    /// Finishes `resolver`'s response as this one finishes, and lets that response's cancellation
    /// reach this one.
    func forward(to resolver: ResponseKit.Resolver<Value>) {
        link(resolver.response)
        observe { resolver.resolve(with: $0) }
    }
}
