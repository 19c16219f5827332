import Synchronization

/// ``IntPromise`` made generic: the fan-in's combined promise in W5, and an alternative in W1 and
/// W2 that shows what being generic costs a hand-written future.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class MutexPromise<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var callback: (@Sendable (Value) -> Void)?
    }

    private let state: Mutex<State>

    /// A pending promise.
    init() {
        state = Mutex(State())
    }

    /// A promise that already has `value`.
    init(resolvedWith value: Value) {
        state = Mutex(State(value: value))
    }

    /// A pending promise, made out of the caller's sight as ``IntPromise/pending()`` explains.
    @inline(never)
    static func pending() -> MutexPromise<Value> {
        MutexPromise()
    }

    /// A promise that already has `value`, made out of the caller's sight.
    @inline(never)
    static func resolved(_ value: Value) -> MutexPromise<Value> {
        MutexPromise(resolvedWith: value)
    }

    /// Calls `callback` with the value once there is one: at once when there already is.
    func observe(_ callback: @escaping @Sendable (Value) -> Void) {
        let value = state.withLock { state -> Value? in
            if let value = state.value { return value }
            precondition(state.callback == nil, "a MutexPromise holds one callback")
            state.callback = callback
            return nil
        }
        if let value { callback(value) }
    }

    /// Sets the value and calls the waiting callback, outside the lock.
    func resolve(_ value: Value) {
        var callback: (@Sendable (Value) -> Void)?
        state.withLock { state in
            precondition(state.value == nil, "a MutexPromise is resolved once")
            state.value = value
            swap(&callback, &state.callback)
        }
        callback?(value)
    }
}
