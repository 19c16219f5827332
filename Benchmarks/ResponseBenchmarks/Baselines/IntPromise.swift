import Synchronization

/// The floor for W1–W3, W5 and M: the thinnest hand-written future for the workloads' `Int`s.
///
/// A `final class` with a `Mutex` holding the value and one optional closure, as the issue
/// describes it. It keeps only what every future needs (a result slot, one waiting callback,
/// callbacks run outside the lock, a late observer called at once) and none of what ResponseKit
/// adds (failures, several callbacks, executors, isolation, cancellation, diagnostics). Misuse
/// traps instead of skewing a figure.
///
/// It is concrete on purpose: code written by hand for one job is. A generic class costs some
/// 2.5× more per W1 operation on Linux, because the deinit of a generic class always runs
/// unspecialised and looks up the metadata of its fields' types; ``MutexPromise`` is that generic
/// version, reported as an alternative so that the difference stays visible.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class IntPromise: Sendable {
    private struct State {
        var value: Int?
        var callback: (@Sendable (Int) -> Void)?
    }

    private let state: Mutex<State>

    /// A pending promise.
    init() {
        state = Mutex(State())
    }

    /// A promise that already has `value`.
    init(resolvedWith value: Int) {
        state = Mutex(State(value: value))
    }

    /// A pending promise, made where the caller cannot see: as an interactor's method returns
    /// one to its caller. A promise that never leaves the function that made it is promoted to
    /// the stack by the optimiser (W2's floor then costs 9 ns instead of ~30), which no real use
    /// of a future allows; ResponseKit's responses come from another module and always escape.
    @inline(never)
    static func pending() -> IntPromise {
        IntPromise()
    }

    /// A promise that already has `value`, made out of the caller's sight like ``pending()``.
    @inline(never)
    static func resolved(_ value: Int) -> IntPromise {
        IntPromise(resolvedWith: value)
    }

    /// Calls `callback` with the value once there is one: at once when there already is.
    func observe(_ callback: @escaping @Sendable (Int) -> Void) {
        let value = state.withLock { state -> Int? in
            if let value = state.value { return value }
            precondition(state.callback == nil, "an IntPromise holds one callback")
            state.callback = callback
            return nil
        }
        if let value { callback(value) }
    }

    /// Sets the value and calls the waiting callback, outside the lock.
    ///
    /// The callback leaves the lock through a local variable, not as `withLock`'s result: a
    /// closure returned through the generic `withLock` is boxed on the heap, one avoidable
    /// allocation per resolve (measured: 2 allocations per W1 operation instead of 1).
    func resolve(_ value: Int) {
        var callback: (@Sendable (Int) -> Void)?
        state.withLock { state in
            precondition(state.value == nil, "an IntPromise is resolved once")
            state.value = value
            swap(&callback, &state.callback)
        }
        callback?(value)
    }
}

/// The floor's resolver: the producer's handle on an ``IntPromise``, an object of its own as
/// ResponseKit's resolver is, so that both sides make the same allocations and a dropped,
/// unresolved resolver is noticed (the floor traps; ResponseKit fails the response and reports).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class IntResolver: Sendable {
    let promise: IntPromise
    private let isResolved = Atomic(false)

    private init(_ promise: IntPromise) {
        self.promise = promise
    }

    /// A pending promise and its resolver, made out of the caller's sight like
    /// ``IntPromise/pending()``.
    @inline(never)
    static func pending() -> (promise: IntPromise, resolver: IntResolver) {
        let promise = IntPromise()
        return (promise, IntResolver(promise))
    }

    /// Resolves the promise.
    func resolve(_ value: Int) {
        isResolved.store(true, ordering: .relaxed)
        promise.resolve(value)
    }

    deinit {
        precondition(isResolved.load(ordering: .relaxed), "an IntResolver was dropped unresolved")
    }
}
