/// The producer's handle on a pending ``Response``: the work uses it to finish the response.
///
/// Get one from ``Response/pending(on:file:line:)-(ResponseExecutor,_,_)``. The first result wins: later calls return
/// `false`, and a second *result* (not a result arriving after a cancellation, which is a normal
/// race) is reported through ``ResponseDiagnostics`` with both sites.
///
/// ```swift
/// let (response, resolver) = Response<Data>.pending()
/// let task = download(url) { data, error in
///     if let data { resolver.succeed(data) } else { resolver.fail(error ?? URLError(.unknown)) }
/// }
/// resolver.onCancel { task.cancel() }
/// return response
/// ```
///
/// A resolver holds its response strongly and the response does not hold the resolver, so there is
/// no cycle: once resolved and released, both go away with their callbacks.
public struct Resolver<Value: Sendable>: Sendable {
    /// The response this resolver finishes.
    public let response: Response<Value>

    @inlinable
    init(_ response: Response<Value>) {
        self.response = response
    }

    /// Succeeds the response with `value`, unless it is already done.
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - file: the call site, reported when the response was already done. Leave the default.
    ///   - line: the call site, reported when the response was already done. Leave the default.
    /// - Returns: `true` when this call finished the response; `false` when it was already done.
    @inlinable
    @discardableResult
    public func succeed(_ value: Value, file: StaticString = #fileID, line: UInt = #line) -> Bool {
        response.complete(with: .success(value), file: file, line: line)
    }

    /// Fails the response with `error`, unless it is already done.
    ///
    /// - Parameters:
    ///   - error: the failure, delivered to ``Response/onFailure(isolation:_:)`` callbacks.
    ///   - file: the call site, reported when the response was already done. Leave the default.
    ///   - line: the call site, reported when the response was already done. Leave the default.
    /// - Returns: `true` when this call finished the response; `false` when it was already done.
    @inlinable
    @discardableResult
    public func fail(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) -> Bool {
        response.complete(with: .failure(error), file: file, line: line)
    }

    /// Finishes the response with `result`, unless it is already done.
    ///
    /// - Parameters:
    ///   - result: the outcome.
    ///   - file: the call site, reported when the response was already done. Leave the default.
    ///   - line: the call site, reported when the response was already done. Leave the default.
    /// - Returns: `true` when this call finished the response; `false` when it was already done.
    @inlinable
    @discardableResult
    public func resolve(
        with result: Result<Value, any Error>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        response.complete(with: result, file: file, line: line)
    }

    /// Finishes the response unless it is done, and says nothing if it was: for combinators whose
    /// inputs race to finish one response (a timer against the work, the first of many inputs).
    @inlinable
    @discardableResult
    func resolveIfPending(with result: Result<Value, any Error>) -> Bool {
        response.complete(with: result, reportingDuplicate: false)
    }

    /// Whether the response was cancelled. Long work can poll it to stop early.
    @inlinable
    public var isCancelled: Bool {
        response.isCancelled
    }

    /// Runs `handler` when the response is cancelled, so the work can stop early.
    ///
    /// The handler runs once, on the thread that calls ``Response/cancel()``, before the
    /// response's failure callbacks are delivered; at once when the response is already cancelled;
    /// never when the response finishes any other way.
    ///
    /// - Parameter handler: stops the work. Keep it short: it runs on the cancelling thread.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        if response.addCancellationHandler(handler) { handler() }
    }
}

extension Resolver where Value == Void {
    /// Succeeds a `Response<Void>`, unless it is already done.
    ///
    /// - Returns: `true` when this call finished the response; `false` when it was already done.
    @discardableResult
    public func succeed(file: StaticString = #fileID, line: UInt = #line) -> Bool {
        succeed((), file: file, line: line)
    }
}
