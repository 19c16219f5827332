/// Something that can stop work it started: what a call wrapped by `Response.wrap` may hand back,
/// so that cancelling the response reaches the call.
///
/// `Task` conforms already. A type that has a `cancel()` method conforms with one line:
///
/// ```swift
/// import Foundation
/// #if canImport(FoundationNetworking)
/// import FoundationNetworking   // URLSession, on Linux
/// #endif
/// import ResponseKit
///
/// extension URLSessionTask: @retroactive ResponseCancellable {}   // in your app, once
///
/// func download(_ url: URL) -> Response<Data> {
///     Response<Data>.wrap { handler in
///         let task = URLSession.shared.dataTask(with: url) { data, _, error in handler(data, error) }
///         task.resume()
///         return task   // response.cancel() now cancels the task
///     }
/// }
/// ```
///
/// A call that hands back a closure that cancels it is wrapped in ``ResponseCancellation``.
public protocol ResponseCancellable: Sendable {
    /// Stops the work, if it is still running. Called at most once, on the thread that cancels
    /// the response, before the response's failure callbacks are delivered: keep it short.
    func cancel()
}

extension Task: ResponseCancellable {}

/// A closure that cancels a wrapped call, as a ``ResponseCancellable``: for calls that hand back
/// such a closure instead of an object.
///
/// <!-- example: fragment -->
/// ```swift
/// struct Counter {   // an SDK's API that calls back once, and returns a closure that stops it
///     func fetchCount(completion: @escaping @Sendable (Int) -> Void) -> @Sendable () -> Void {
///         completion(3)
///         return {}
///     }
/// }
///
/// let count = Response<Int>.wrap { handler in ResponseCancellation(Counter().fetchCount(completion: handler)) }
/// ```
public struct ResponseCancellation: ResponseCancellable {
    private let action: @Sendable () -> Void

    /// Makes a handle that runs `cancel` when the response is cancelled.
    ///
    /// - Parameter cancel: stops the wrapped call.
    public init(_ cancel: @escaping @Sendable () -> Void) {
        action = cancel
    }

    /// Runs the closure.
    public func cancel() {
        action()
    }
}
