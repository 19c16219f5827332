import CResponseKit

/// Everything about a response that changes, in one place: the state word (lock, flags, claims)
/// and the state machine. It is the first stored property of ``Response``, so that it lives in the
/// response's own allocation at a fixed address, which the C atomics of the word need.
///
/// Only the methods in this file touch it. They take the lock around every access to `machine`
/// (``Response/withLock(_:)``), with one documented exception, the fast path for a finished
/// result (``Response/deliveredResult``).
@usableFromInline
struct ResponseStorage<Value: Sendable> {
    /// Lock, flags and claim count; C atomics only. Must stay the first field.
    @usableFromInline var word: rk_word
    /// The creation site's line (kept here, where it fills what would be padding).
    @usableFromInline let creationLine: UInt32
    @usableFromInline var machine: ResponseStateMachine<Value>

    @inlinable
    init(flags: UInt32, line: UInt, state: ResponseStateMachine<Value>.State) {
        word = rk_word_make(flags)
        creationLine = UInt32(truncatingIfNeeded: line)
        machine = ResponseStateMachine(state: state)
    }
}

extension Response {
    /// The storage, inside this object. `storage` is the class's first stored property, so it
    /// starts where the object's stored properties start.
    @inlinable @inline(__always)
    var storagePointer: UnsafeMutablePointer<ResponseStorage<Value>> {
        _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: ResponseStorage<Value>.self)
    }

    /// The state word, the storage's first field: reached without the value type's metadata, so
    /// that unspecialised code (a deinit) reads the flags cheaply.
    @inlinable @inline(__always)
    var word: UnsafeMutablePointer<rk_word> {
        _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: rk_word.self)
    }

    /// Runs `body` on the state machine under the lock, then releases it, setting `flagsOnUnlock`
    /// as `body` leaves them (in the same atomic operation where the platform allows). The only
    /// code that takes a response's lock. Keep `body` to the machine: never user code.
    @inlinable @inline(__always)
    func withLock<Result>(
        _ body: (inout ResponseStateMachine<Value>, inout UInt32) -> Result
    ) -> Result {
        let storage = storagePointer
        rk_lock(word)
        var flagsOnUnlock: UInt32 = 0
        let result = body(&storage.pointee.machine, &flagsOnUnlock)
        if flagsOnUnlock == 0 {
            rk_unlock(word)
        } else {
            rk_unlock_setting(word, flagsOnUnlock)
        }
        return result
    }

    /// The flags, with acquire ordering.
    @inlinable @inline(__always)
    var flags: UInt32 {
        rk_load_acquire(word)
    }

    /// Sets `flags` without the lock.
    @inlinable @inline(__always)
    func setFlags(_ flags: UInt32) {
        rk_fetch_or(word, flags)
    }

    /// The result once it has been delivered to every callback, read **without the lock**: the
    /// one documented fast path. After `delivered` is set (with release ordering, after the
    /// machine became `.done`), nothing writes the machine again, so a reader that sees the flag
    /// (acquire) may read it. `nil` before that, whatever the state.
    @inlinable @inline(__always)
    var deliveredResult: Result<Value, any Error>? {
        guard flags & ResponseFlags.delivered != 0 else { return nil }
        return storagePointer.pointee.machine.result
    }

    /// The result if the response has one: without the lock once delivered, with it before.
    @inlinable
    var currentResult: Result<Value, any Error>? {
        let flags = self.flags
        if flags & ResponseFlags.delivered != 0 { return storagePointer.pointee.machine.result }
        guard flags & ResponseFlags.done != 0 else { return nil }
        return withLock { machine, _ in machine.result }
    }

    /// The creation site's line.
    @inlinable
    var creationLine: UInt32 {
        storagePointer.pointee.creationLine
    }

    // MARK: - Claims

    /// Adds a claim: with or without the lock, the add is atomic.
    @inlinable
    func addClaim() {
        rk_fetch_add(word, ResponseFlags.oneClaim)
    }

    /// Removes a claim; returns whether it was the last one.
    @inlinable
    func removeClaim() -> Bool {
        let before = rk_fetch_sub(word, ResponseFlags.oneClaim)
        return before >> 8 == 1
    }
}
