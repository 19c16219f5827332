import Dispatch
import Foundation

/// One callback registered on a response, with the isolation it must run in.
///
/// Safety of `@unchecked Sendable`: the closures may be non-`Sendable`, because they are formed in
/// the registering code's isolation (so that `@MainActor` code can touch its own state). A callback
/// crosses threads only inside the response, which upholds these rules:
/// - it is stored under the response's lock and handed out exactly once, when the response
///   completes or when it is registered on a finished response; nothing else keeps a reference;
/// - a callback formed on the main actor runs on the main queue, one formed on another actor runs
///   on that actor (``run(with:onMainQueue:)``), so it never runs outside the isolation it captured;
/// - a callback formed in nonisolated code runs on the response's executor. Such code can only
///   capture what it may share with another thread, which the documentation of
///   ``Response/onCompletion(isolation:_:)`` asks of it.
struct ResponseCallback<Value: Sendable>: @unchecked Sendable {
    /// What the callback wants to hear about.
    enum Body {
        /// Success only.
        case success((Value) -> Void)
        /// Failure only, cancellation included.
        case failure((any Error) -> Void)
        /// Either outcome.
        case result((Result<Value, any Error>) -> Void)
    }

    let body: Body
    /// The registering code's isolation; `nil` for nonisolated code.
    let isolation: (any Actor)?
    /// Runs inline on the completing thread, whatever the response's executor: internal
    /// observers (blocking waiters) that must not wait for a queue.
    let isInline: Bool

    /// Whether the callback runs at all for `result`.
    func accepts(_ result: Result<Value, any Error>) -> Bool {
        switch (body, result) {
        case (.success, .failure), (.failure, .success): false
        default: true
        }
    }

    /// Whether the callback counts as someone looking at a failure.
    var observesFailure: Bool {
        if case .success = body { return false }
        return true
    }

    /// Calls the closure on the current thread.
    func invoke(_ result: Result<Value, any Error>) {
        switch (body, result) {
        case (.success(let body), .success(let value)): body(value)
        case (.failure(let body), .failure(let error)): body(error)
        case (.result(let body), _): body(result)
        default: break
        }
    }

    /// Calls the closure in its isolation: here when that is the current context, otherwise by
    /// hopping to the main queue or to the callback's actor.
    ///
    /// - Parameter onMainQueue: the caller knows it runs on the main queue (the `.main` executor).
    func run(with result: Result<Value, any Error>, onMainQueue: Bool) {
        switch isolation {
        case nil:
            invoke(result)
        case let actor? where actor === MainActor.shared:
            if onMainQueue || MainQueue.isCurrent {
                invoke(result)
            } else {
                DispatchQueue.main.async { self.invoke(result) }
            }
        case let actor?:
            Task { await Self.invoke(self, result, isolatedTo: actor) }
        }
    }

    private static func invoke(
        _ callback: ResponseCallback,
        _ result: Result<Value, any Error>,
        isolatedTo actor: isolated any Actor
    ) {
        callback.invoke(result)
    }
}

/// The callbacks of a pending response, without an array for the common case of one.
enum CallbackList<Value: Sendable> {
    case empty
    case one(ResponseCallback<Value>)
    case many([ResponseCallback<Value>])

    mutating func append(_ callback: ResponseCallback<Value>) {
        switch self {
        case .empty:
            self = .one(callback)
        case .one(let first):
            self = .many([first, callback])
        case .many(var callbacks):
            self = .empty  // drop our reference so the append below does not copy the array
            callbacks.append(callback)
            self = .many(callbacks)
        }
    }

    /// Whether any callback would see a failure.
    var observesFailure: Bool {
        switch self {
        case .empty: false
        case .one(let callback): callback.observesFailure
        case .many(let callbacks): callbacks.contains { $0.observesFailure }
        }
    }

    /// Calls `body` for each callback in registration order.
    func forEach(_ body: (ResponseCallback<Value>) -> Void) {
        switch self {
        case .empty: break
        case .one(let callback): body(callback)
        case .many(let callbacks): callbacks.forEach(body)
        }
    }
}
