import Synchronization

/// ``IntPromise`` with a lock-free read of a value already there: the thinnest correct future
/// for W2, where the promise is resolved before anyone observes it. An observer of a resolved
/// promise does one acquire load and one load, as ResponseKit's reads of a delivered response do
/// (its `delivered` flag); only a pending promise takes the lock. The value is an `Atomic` of its
/// own, so that it is readable without the lock and the type stays checked `Sendable`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class LockFreeReadPromise: Sendable {
    private let callback = Mutex<(@Sendable (Int) -> Void)?>(nil)
    private let isResolved = Atomic(false)
    private let value = Atomic(0)

    private init() {}

    private init(resolvedWith value: Int) {
        self.value.store(value, ordering: .relaxed)
        isResolved.store(true, ordering: .releasing)
    }

    /// A promise that already has `value`, made out of the caller's sight like
    /// ``IntPromise/resolved(_:)``.
    @inline(never)
    static func resolved(_ value: Int) -> LockFreeReadPromise {
        LockFreeReadPromise(resolvedWith: value)
    }

    /// Calls `callback` with the value once there is one: at once, without the lock, when there
    /// already is.
    func observe(_ callback: @escaping @Sendable (Int) -> Void) {
        if isResolved.load(ordering: .acquiring) {
            callback(value.load(ordering: .relaxed))
            return
        }
        let waiting = self.callback.withLock { stored -> Bool in
            // Resolved meanwhile: the resolver has taken the lock after setting the flag.
            if isResolved.load(ordering: .acquiring) { return false }
            precondition(stored == nil, "a LockFreeReadPromise holds one callback")
            stored = callback
            return true
        }
        if !waiting { callback(value.load(ordering: .relaxed)) }
    }
}
