/// Something that can stop work it started: what a call wrapped by `Response.wrap` may hand back,
/// so that cancelling the response reaches the call.
///
/// `Task` conforms already. A type that has a `cancel()` method conforms with one line:
///
/// ```swift
/// extension URLSessionTask: ResponseCancellable {}   // in your app, where Foundation networking is
///
/// func download(_ url: URL) -> Response<Data> {
///     Response<Data>.wrap { handler in
///         let task = session.dataTask(with: url) { data, _, error in handler(data, error) }
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
/// ```swift
/// // func fetchCount(completion: @escaping (Int) -> Void) -> () -> Void   (calls back once; returns "stop")
/// let count = Response<Int>.wrap { handler in ResponseCancellation(counter.fetchCount(completion: handler)) }
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
