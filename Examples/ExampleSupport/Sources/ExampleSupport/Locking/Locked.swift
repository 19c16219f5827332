import Foundation

/// A value behind a lock: what the examples' gateways and test doubles use for state that
/// several threads touch, as an app would (ResponseKit's own lock type is not public API).
///
/// `NSLock` because it is on every platform the package supports, iOS 13 included;
/// `Synchronization.Mutex` needs iOS 18 / macOS 15. On Linux `NSLock` is a pthread mutex, which
/// the thread sanitizer sees.
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }
/// ```
// Safety of `@unchecked Sendable`: the value is reachable only through `withLock`, which holds the
// lock for the whole access, so no two threads touch it at once; the value itself must be
// `Sendable` (the conditional conformance below) to be handed between threads.
public nonisolated final class Locked<Value>: @unchecked Sendable where Value: Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Makes a lock around `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. Keep it short: decide under the lock, act
    /// outside it.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
