import Dispatch

/// The answer an interactor hands back *now* for work that finishes *later*.
///
/// An interactor creates a pending response, starts its work, and returns the response at once.
/// The work finishes the response through its ``Resolver``. The caller picks a style:
/// callbacks (``onCompletion(isolation:_:)``, ``onFailure(isolation:_:)``) or a blocking
/// future (``value``, ``error``, ``wait(timeout:)``), which is what deterministic tests use.
///
/// ```swift
/// final class LoadProfile {
///     func execute(userID: Int) -> Response<Profile> {
///         let (response, resolver) = Response<Profile>.pending()
///         DispatchQueue.global().async {
///             if resolver.isCancelled { return }
///             resolver.succeed(Profile(id: userID))
///         }
///         return response
///     }
/// }
///
/// // Callback style: runs on the main queue, exactly once.
/// LoadProfile().execute(userID: 7)
///     .onCompletion { profile in show(profile) }
///     .onFailure { error in showError(error) }
///
/// // Blocking style, as in a test: waits until done, then returns or throws.
/// let profile = try LoadProfile().execute(userID: 7).value
/// ```
///
/// ## Threading
/// - Every member is safe to call from any thread; `Response` is `Sendable`.
/// - Callbacks run on the response's ``ResponseExecutor``: ``ResponseExecutor/main`` unless the
///   producer picked another. Callbacks registered on one response run in registration order.
/// - A callback formed in `@MainActor` code is main-actor isolated and always runs on the main
///   queue, so a presenter can update its own state from it with no warning and no escape hatch.
/// - The first result wins; a second one is ignored and reported through
///   ``ResponseDiagnostics``.
public final class Response<Value: Sendable>: Sendable {
    /// The producer's handle on a pending response. The same type as ``ResponseKit/Resolver``.
    public typealias Resolver = ResponseKit.Resolver<Value>

    let state: LockedBox<ResponseState<Value>>

    /// Where callbacks run.
    public let executor: ResponseExecutor

    /// The file that created the response, for diagnostics and descriptions.
    public let file: StaticString
    /// The line that created the response, for diagnostics and descriptions.
    public let line: UInt

    init(
        state: ResponseState<Value>,
        executor: ResponseExecutor,
        file: StaticString,
        line: UInt
    ) {
        self.state = .make(state)
        self.executor = executor
        self.file = file
        self.line = line
    }

    deinit {
        let unobserved = state.withLock { state -> (any Error)? in
            guard !state.isFailureObserved, case .failure(let error) = state.result,
                !(error is CancellationError)
            else { return nil }
            return error
        }
        if let unobserved {
            ResponseDiagnostics.report(
                .unobservedFailure,
                "\(Self.self) created at \(file):\(line) failed with \(unobserved) and was released "
                    + "without anyone observing the failure (no onFailure, always, blocking read or await)",
                file: file,
                line: line
            )
        }
    }

    // MARK: - Making responses

    /// Makes a pending response and the resolver that finishes it.
    ///
    /// Return the response to the caller at once; hand the resolver to the work.
    ///
    /// ```swift
    /// let (response, resolver) = Response<Int>.pending()
    /// DispatchQueue.global().async { resolver.succeed(42) }
    /// return response
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    /// - Returns: the pending response and its resolver.
    public static func pending(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (response: Response<Value>, resolver: Resolver) {
        let response = Response(state: ResponseState(), executor: executor, file: file, line: line)
        return (response, Resolver(response))
    }

    /// Makes a response whose work runs asynchronously on `queue`.
    ///
    /// `body` is skipped when the response is cancelled before the queue gets to it.
    ///
    /// ```swift
    /// let response = Response<Int>(on: .global()) { try expensiveComputation() }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: the queue that runs `body`.
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: the work. Its return value succeeds the response; its error fails it.
    public convenience init(
        on queue: DispatchQueue,
        executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () throws -> Value
    ) {
        self.init(state: ResponseState(), executor: executor, file: file, line: line)
        let resolver = Resolver(self)
        queue.async {
            guard !resolver.isCancelled else { return }
            resolver.resolve(with: Result(catching: body))
        }
    }

    /// Makes a response that has already succeeded.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site. Leave the default.
    ///   - line: the creation site. Leave the default.
    /// - Returns: a done, successful response.
    public static func succeeded(
        _ value: Value,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        Response(state: ResponseState(result: .success(value)), executor: executor, file: file, line: line)
    }

    /// Makes a response that has already failed.
    ///
    /// - Parameters:
    ///   - error: the failure.
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site. Leave the default.
    ///   - line: the creation site. Leave the default.
    /// - Returns: a done, failed response.
    public static func failed(
        _ error: any Error,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        Response(state: ResponseState(result: .failure(error)), executor: executor, file: file, line: line)
    }

    // MARK: - State

    /// Whether the response has a result. Never blocks.
    public var isDone: Bool {
        state.withLock { $0.result != nil }
    }

    /// Whether the response is done and succeeded. Never blocks.
    public var isSuccessful: Bool {
        state.withLock { state in
            if case .success = state.result { return true }
            return false
        }
    }

    /// Whether the response was cancelled through ``cancel()``. Never blocks.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    // MARK: - Cancelling

    /// Fails a pending response with `CancellationError` and tells the work, so that it can stop.
    ///
    /// The work hears about it through ``Resolver/isCancelled`` or ``Resolver/onCancel(_:)``.
    /// Failure callbacks receive the `CancellationError`. Cancelling a response that is already
    /// done does nothing.
    ///
    /// - Returns: `true` when this call cancelled the response, `false` when it was already done.
    @discardableResult
    public func cancel() -> Bool {
        complete(with: .failure(CancellationError()), cancelling: true)
    }

    // MARK: - Completing (used by Resolver)

    /// Completes the response; the first result wins.
    ///
    /// Decides under the lock, then runs cancellation handlers and delivers callbacks outside it,
    /// in a loop, so a callback that resolves another response never runs under our lock.
    @discardableResult
    func complete(
        with result: Result<Value, any Error>,
        cancelling: Bool = false,
        reportingDuplicate: Bool = true,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        switch state.withLock({ $0.complete(with: result, cancelling: cancelling) }) {
        case .alreadyDone(let first):
            if reportingDuplicate, !cancelling, !Self.isCancellation(first) {
                ResponseDiagnostics.report(
                    .resolvedTwice,
                    "\(Self.self) created at \(self.file):\(self.line) was resolved again at \(file):\(line); "
                        + "the first result (\(Self.summary(of: first))) stands",
                    file: self.file,
                    line: self.line
                )
            }
            return false
        case .deliver(let callbacks, let handlers, let upstreams):
            for handler in handlers { handler() }
            upstreams.releaseAll()
            callbacks.forEach { deliver(result, to: $0) }
            return true
        }
    }

    /// Registers `callback`, or delivers it at once when the response is done.
    func register(_ callback: ResponseCallback<Value>) {
        if let result = state.withLock({ $0.register(callback) }) {
            deliver(result, to: callback)
        }
    }

    private func deliver(_ result: Result<Value, any Error>, to callback: ResponseCallback<Value>) {
        guard callback.accepts(result) else { return }
        if callback.isInline {
            callback.invoke(result)
            return
        }
        switch executor.kind {
        case .immediate:
            callback.run(with: result, onMainQueue: false)
        case .main:
            DispatchQueue.main.async { callback.run(with: result, onMainQueue: true) }
        case .queue, .custom:
            executor.execute { callback.run(with: result, onMainQueue: false) }
        }
    }

    static func isCancellation(_ result: Result<Value, any Error>) -> Bool {
        if case .failure(let error) = result, error is CancellationError { return true }
        return false
    }

    static func summary(of result: Result<Value, any Error>) -> String {
        switch result {
        case .success(let value): "succeeded with \(value)"
        case .failure(let error): "failed with \(error)"
        }
    }
}

extension Response: CustomStringConvertible, CustomDebugStringConvertible {
    /// The state and creation site, as in `Response<Int>(pending, created at App/Login.swift:12)`.
    public var description: String {
        let result = state.withLock { $0.result }
        let stateText = result.map { Self.summary(of: $0) } ?? "pending"
        return "\(Self.self)(\(stateText), created at \(file):\(line))"
    }

    /// ``description`` plus the executor.
    public var debugDescription: String {
        "\(description.dropLast()), executor: \(executor))"
    }
}
