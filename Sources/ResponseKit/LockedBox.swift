#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a pthread mutex that lives in the same allocation.
///
/// Why not `Synchronization.Mutex`: on Linux the thread sanitizer does not see `Mutex`'s locking and
/// reports a false race on every guarded access, so a TSan-clean CI could not check our state. A
/// pthread mutex is seen. The mutex is tail-allocated in a `ManagedBuffer` (as swift-nio's `NIOLock`
/// does) because a mutex needs a stable address, which a Swift stored property does not promise.
/// Keeping value and mutex in one buffer also costs a single allocation.
///
/// The only access is ``withLock(_:)``: the lock cannot be forgotten. `package` so that
/// ResponseKitTesting shares it instead of keeping a second lock type.
package struct LockedBox<Value> {
    private let storage: LockStorage<Value>

    /// Makes a box holding `value`.
    package static func make(_ value: Value) -> LockedBox<Value> {
        LockedBox(storage: LockStorage.make(value))
    }

    /// Runs `body` with exclusive access to the value. Keep `body` short and never call user code
    /// from it: decide under the lock, act outside it.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }

    /// Runs `body` under the lock if it is free now; `nil` without waiting when it is held (by
    /// another thread, or by this one further up its stack: code that may run from a signal
    /// handler or at exit must not wait for a lock its own thread holds).
    package func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        try storage.withLockIfAvailable(body)
    }
}

// Safety: the value is reachable only through `withLock` and `withLockIfAvailable`, each of which
// holds the mutex for the whole access (the second runs nothing when it cannot take it), so sharing
// the box is safe whenever the value itself may cross threads.
extension LockedBox: @unchecked Sendable where Value: Sendable {}

/// The buffer behind ``LockedBox``: the value as header, one `pthread_mutex_t` as element.
private final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    static func make(_ value: Value) -> LockStorage<Value> {
        let buffer = Self.create(minimumCapacity: 1) { _ in value }
        // `create` returns an instance of the class it is called on; the downcast cannot fail.
        let storage = unsafeDowncast(buffer, to: LockStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            #if DEBUG
            // Turns a re-entrant lock (a bug) into an error code instead of a silent deadlock.
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
            #endif
            let error = pthread_mutex_init(mutex, &attributes)
            precondition(error == 0, "pthread_mutex_init failed: \(error)")
            pthread_mutexattr_destroy(&attributes)
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            let error = pthread_mutex_destroy(mutex)
            assert(error == 0, "pthread_mutex_destroy failed: \(error)")
        }
    }

    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, mutex in
            let error = pthread_mutex_lock(mutex)
            precondition(error == 0, "pthread_mutex_lock failed (\(error)): re-entrant use of a ResponseKit lock")
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        try withUnsafeMutablePointers { value, mutex in
            guard pthread_mutex_trylock(mutex) == 0 else { return nil }
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
