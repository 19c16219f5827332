extension Response {
    /// Transforms the value; failures and cancellation pass through unchanged.
    ///
    /// `transform` runs once this response succeeds, on the executor passed as `on:`: by default
    /// ``ResponseExecutor/immediate``, inline on the thread that finishes this response (or that
    /// calls `map`, when this response is already done). So a chain never needs the main thread,
    /// sibling transformations start in the order they were added, and tests that drive a
    /// `ManualExecutor` or `ManualScheduler` stay deterministic. Pass another executor to move
    /// heavy work elsewhere (`.queue(.global())`) or to step it by hand in a test
    /// (`manual.executor`). An error `transform` throws fails the new response. Cancelling the
    /// new response cancels this one, unless someone else still waits for it (another derived
    /// response, a task, a callback, a blocking read).
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct User: Sendable { let name: String }
    /// func fetchUser(id: Int) -> Response<User> { Response(on: .global()) { User(name: "Ada") } }
    ///
    /// let name: Response<String> = fetchUser(id: 7).map { user in user.name }
    /// ```
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; ``ResponseExecutor/immediate`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes the new value from this response's value.
    /// - Returns: a response with the transformed value, delivering on this response's executor.
    /// - Note: In a target with main-actor isolation by default (Xcode 26), what `transform` calls must
    ///   be `nonisolated`, as gateways and interactors are: see <doc:MainActorByDefault>.
    @inlinable
    public func map<NewValue: Sendable>(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Response<NewValue> {
        derive(on: context, file: file, line: line) { result, derived, completion in
            derived.finishAsLastAct(
                with: result.flatMap { value in Result { try transform(value) } }, of: &completion)
        }
    }

    /// Continues with another response made from the value; failures and cancellation pass through.
    ///
    /// `on:` is the executor that runs `transform` (``ResponseExecutor/immediate``, inline, by
    /// default); the new response delivers its callbacks on this response's executor.
    ///
    /// ```swift
    /// import ResponseKit
    ///
    /// struct User: Sendable { let name: String }
    /// func fetchToken(_ password: String) -> Response<String> { Response(on: .global()) { "token" } }
    /// nonisolated func fetchUser(_ token: String) -> Response<User> { Response(on: .global()) { User(name: "Ada") } }
    ///
    /// let user: Response<User> = fetchToken("secret").flatMap { token in fetchUser(token) }
    /// ```
    ///
    /// Cancelling the new response cancels whichever response it is waiting on at the time. A
    /// `transform` that returns the very response `flatMap` made fails it with
    /// ``ResponseError/returnedSelf`` (it could never finish otherwise).
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes the next response from this response's value. An error it throws
    ///     fails the new response.
    /// - Returns: a response that finishes as the response `transform` returns does.
    /// - Note: In a target with main-actor isolation by default (Xcode 26), what `transform` calls must
    ///   be `nonisolated`, as gateways and interactors are: see <doc:MainActorByDefault>.
    public func flatMap<NewValue: Sendable>(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws -> Response<NewValue>
    ) -> Response<NewValue> {
        derive(on: context, file: file, line: line) { result, derived, completion in
            switch result {
            case .success(let value):
                do {
                    try transform(value).forward(to: derived, context: &completion)
                } catch {
                    derived.finishAsLastAct(with: .failure(error), of: &completion)
                }
            case .failure(let error):
                derived.finishAsLastAct(with: .failure(error), of: &completion)
            }
        }
    }

    /// Turns a failure into a value; a success passes through. Cancellation is not recovered:
    /// a cancelled response stays cancelled.
    ///
    /// `on:` is the executor that runs `transform` (``ResponseExecutor/immediate``, inline, by
    /// default); the new response delivers its callbacks on this response's executor.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct Avatar: Sendable { let png: Data }
    /// func fetchAvatar(_ user: String) -> Response<Avatar> { .failed(URLError(.notConnectedToInternet)) }
    ///
    /// let avatar = fetchAvatar("ada").recover { _ in Avatar(png: Data()) }   // a placeholder
    /// ```
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes a value from the error, or throws to fail the new response.
    /// - Returns: a response that succeeds with this response's value or the recovered one.
    public func recover(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (any Error) throws -> Value
    ) -> Response<Value> {
        derive(on: context, file: file, line: line) { result, derived, completion in
            switch result {
            case .failure(let error) where !(error is CancellationError):
                derived.finishAsLastAct(with: Result { try transform(error) }, of: &completion)
            default:
                derived.finishAsLastAct(with: result, of: &completion)
            }
        }
    }

    /// Turns a failure into another response, such as a retry against a fallback; a success passes
    /// through. Cancellation is not recovered.
    ///
    /// `on:` is the executor that runs `transform` (``ResponseExecutor/immediate``, inline, by
    /// default); the new response delivers its callbacks on this response's executor.
    ///
    /// ```swift
    /// import Foundation
    /// import ResponseKit
    ///
    /// struct User: Sendable { let id: Int }
    /// func fetchUser(fromCache id: Int) -> Response<User> { .failed(CocoaError(.fileNoSuchFile)) }
    /// nonisolated func fetchUser(fromServer id: Int) -> Response<User> { Response(on: .global()) { User(id: id) } }
    ///
    /// let user = fetchUser(fromCache: 7).flatMapError { _ in fetchUser(fromServer: 7) }
    /// ```
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes the fallback response from the error; an error it throws fails the
    ///     new response. Returning the response `flatMapError` made fails it with
    ///     ``ResponseError/returnedSelf``.
    /// - Returns: a response that succeeds with this response's value or finishes as the fallback.
    public func flatMapError(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (any Error) throws -> Response<Value>
    ) -> Response<Value> {
        derive(on: context, file: file, line: line) { result, derived, completion in
            switch result {
            case .failure(let error) where !(error is CancellationError):
                do {
                    try transform(error).forward(to: derived, context: &completion)
                } catch {
                    derived.finishAsLastAct(with: .failure(error), of: &completion)
                }
            default:
                derived.finishAsLastAct(with: result, of: &completion)
            }
        }
    }

    /// Replaces a failure with another error, such as a domain error for the presenter; a success
    /// and cancellation pass through.
    ///
    /// `on:` is the executor that runs `transform` (``ResponseExecutor/immediate``, inline, by
    /// default); the new response delivers its callbacks on this response's executor.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct User: Sendable { let id: Int }
    /// enum LoginError: Error { case network(any Error) }
    /// func fetchUser(_ id: Int) -> Response<User> { .failed(URLError(.notConnectedToInternet)) }
    ///
    /// let user = fetchUser(7).mapError { error in LoginError.network(error) }
    /// ```
    ///
    /// - Parameters:
    ///   - context: where `transform` runs; ``ResponseExecutor/immediate`` (inline) by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - transform: makes the new error.
    /// - Returns: a response that fails with the transformed error.
    public func mapError(
        on context: ResponseExecutor = .immediate,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (any Error) -> any Error
    ) -> Response<Value> {
        derive(on: context, file: file, line: line) { result, derived, completion in
            switch result {
            case .failure(let error) where !(error is CancellationError):
                derived.finishAsLastAct(with: .failure(transform(error)), of: &completion)
            default:
                derived.finishAsLastAct(with: result, of: &completion)
            }
        }
    }
}
