import ResponseKit

/// A request in flight, whatever its response's value type: what a run keeps of it to cancel it
/// at the end. The run itself is not generic; only the few lines in
/// ``LoadDriver/run(on:_:)-(_,(Int)->Response<Value>)`` that make a request and hear its answer
/// are, and they are specialised in the caller's module.
@usableFromInline
protocol PendingRequest: AnyObject, Sendable {
    /// Fails the response with `CancellationError`, unless it is done.
    @discardableResult
    func cancel() -> Bool
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Response: PendingRequest {}

/// What a run needs back with an answer, carried by the request's callback, so that hearing an
/// answer looks nothing up.
@usableFromInline
struct LoadToken: Sendable {
    /// The closed-loop lane that made the request, or the open-loop request's number.
    let number: Int
    /// When the request started, in the clock's nanoseconds: made, in a closed loop; meant to
    /// start, in an open loop.
    let start: UInt64
    /// Whether the request was made after the warm-up.
    let isMeasured: Bool
    /// The request's ``LoadScenario``, by its place in the list; 0 without scenarios.
    let scenario: Int
}
