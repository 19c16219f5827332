import CResponseKit

/// The producer's handle on a pending ``Response``: the work uses it to finish the response.
///
/// Get one from ``Response/pending(on:file:line:)-(ResponseExecutor,_,_)``. The first result wins:
/// later calls return `false`, and a second *result* (not a result arriving after a cancellation,
/// which is a normal race) is reported through ``ResponseDiagnostics`` with both sites.
///
/// ```swift
/// import Foundation
/// #if canImport(FoundationNetworking)
/// import FoundationNetworking   // URLSession, on Linux
/// #endif
/// import ResponseKit
///
/// func download(_ url: URL) -> Response<Data> {
///     let (response, resolver) = Response<Data>.pending()
///     let task = URLSession.shared.dataTask(with: url) { data, _, error in
///         if let data { resolver.succeed(data) } else { resolver.fail(error ?? URLError(.unknown)) }
///     }
///     resolver.onCancel { task.cancel() }
///     task.resume()
///     return response
/// }
/// ```
///
/// **Releasing every copy of the resolver before resolving fails the response** with
/// ``ResponseError/abandoned`` (and reports it, naming the creation site), so that callbacks,
/// blocked readers and awaiting tasks hear about work that was dropped instead of waiting forever.
///
/// A resolver holds its response strongly and the response does not hold the resolver, so there
/// is no cycle: once resolved and released, both go away with their callbacks.
public struct Resolver<Value: Sendable>: Sendable {
    /// The one object shared by every copy: its release is how the response learns that nobody
    /// can resolve it any more.
    @usableFromInline let handle: ResolverHandle<Value>

    @inlinable
    init(_ response: Response<Value>) {
        handle = ResolverHandle(response)
    }

    /// The response this resolver finishes.
    @inlinable
    public var response: Response<Value> {
        handle.response
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
        response.finish(with: .success(value), how: .resolving(file: file, line: line))
    }

    /// Fails the response with `error`, unless it is already done.
    ///
    /// - Parameters:
    ///   - error: the failure, delivered to ``Response/onFailure(_:)`` callbacks.
    ///   - file: the call site, reported when the response was already done. Leave the default.
    ///   - line: the call site, reported when the response was already done. Leave the default.
    /// - Returns: `true` when this call finished the response; `false` when it was already done.
    @inlinable
    @discardableResult
    public func fail(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) -> Bool {
        response.finish(with: .failure(error), how: .resolving(file: file, line: line))
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
        response.finish(with: result, how: .resolving(file: file, line: line))
    }

    /// Finishes the response unless it is done, and says nothing if it was: for inputs that race
    /// to finish one response (a timer against the work). `package` for ResponseKitServices,
    /// whose manager settles what it never got to, whatever was answered before.
    @inlinable
    @discardableResult
    package func resolveIfPending(with result: Result<Value, any Error>) -> Bool {
        response.finish(with: result, how: .racing)
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
    @inlinable
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        response.addCancellationHandler(handler)
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

/// The object behind every copy of a ``Resolver``: when the last copy goes, a response that is
/// still pending can never be resolved, so it fails with ``ResponseError/abandoned``.
///
/// Its deinit, which runs once per resolver, reads the response's flags without the value type's
/// metadata and only calls into the response when it is still pending.
@usableFromInline
final class ResolverHandle<Value: Sendable>: Sendable {
    @usableFromInline let response: Response<Value>

    @inlinable
    init(_ response: Response<Value>) {
        self.response = response
    }

    deinit {
        let flags = rk_load_acquire(ResponseLayout.word(of: response))
        if flags & ResponseFlags.done == 0 { response.abandonIfPending() }
    }
}
