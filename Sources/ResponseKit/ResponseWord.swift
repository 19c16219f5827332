import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One atomic word per response: its lock, its flags and its claim count.
///
/// Why a word of our own rather than a mutex: a response is created, observed and resolved in
/// well under a microsecond, and its lock is held only to swap a few fields (never around user
/// code), so contention is rare and short. A pthread mutex needs a stable address (a second
/// allocation) and 40 bytes; `Synchronization.Mutex` is invisible to the thread sanitizer on
/// Linux. `Atomic` operations are seen by the sanitizer, cost 4 bytes in the object, and let the
/// flags be read without taking the lock (`isDone` publishes the result with release/acquire).
///
/// Layout: bit 0 lock, bit 1 done, bit 2 cancelled, bit 3 failure observed, bit 4 failed,
/// bit 5 delivered, bit 6 late registration, bits 8 and up the claim count.
@usableFromInline
struct ResponseWord: ~Copyable {
    @usableFromInline static var locked: UInt32 { 1 }
    @usableFromInline static var done: UInt32 { 2 }
    @usableFromInline static var cancelled: UInt32 { 4 }
    @usableFromInline static var failureObserved: UInt32 { 8 }
    @usableFromInline static var failed: UInt32 { 16 }
    /// Set once every callback registered before or during completion has been handed out: from
    /// then on `status` is `.done` for good and may be read without the lock.
    @usableFromInline static var delivered: UInt32 { 32 }
    /// Set (under the lock) when a callback was registered while the completing thread was
    /// delivering, so that thread must look at the late list before it may set `delivered`.
    @usableFromInline static var lateRegistered: UInt32 { 64 }
    @usableFromInline static var oneClaim: UInt32 { 1 << 8 }

    @usableFromInline let bits: Atomic<UInt32>

    @inlinable
    init(flags: UInt32) {
        bits = Atomic(flags)
    }

    /// Takes the lock: one compare-and-swap when nobody holds it.
    @inlinable
    func lock() {
        let current = bits.load(ordering: .relaxed) & ~Self.locked
        if bits.weakCompareExchange(
            expected: current,
            desired: current | Self.locked,
            successOrdering: .acquiring,
            failureOrdering: .relaxed
        ).exchanged {
            return
        }
        lockContended()
    }

    /// Spins briefly, then yields the processor until the lock is free. Holders never run user
    /// code under the lock, so a wait lasts as long as a few field swaps, or a preemption.
    @usableFromInline
    func lockContended() {
        var spins = 0
        while true {
            let current = bits.load(ordering: .relaxed)
            if current & Self.locked == 0,
                bits.weakCompareExchange(
                    expected: current,
                    desired: current | Self.locked,
                    successOrdering: .acquiring,
                    failureOrdering: .relaxed
                ).exchanged
            {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }

    /// Releases the lock, keeping the flags and claims.
    @inlinable
    func unlock() {
        bits.subtract(Self.locked, ordering: .releasing)
    }

    /// Sets `flags`. Call with the lock held; `done` is set with release ordering so that a
    /// reader who sees it without the lock also sees the result written before it.
    @inlinable
    func set(_ flags: UInt32) {
        bits.bitwiseOr(flags, ordering: .releasing)
    }

    /// Whether all of `flags` are set. Acquire ordering: after seeing `done`, the result may be
    /// read without the lock, because it never changes again.
    @inlinable
    func contains(_ flags: UInt32) -> Bool {
        bits.load(ordering: .acquiring) & flags == flags
    }

    /// All the flags at once, with acquire ordering.
    @inlinable
    var flags: UInt32 {
        bits.load(ordering: .acquiring)
    }

    /// Sets `delivered` in one compare-and-swap, unless the lock is held or a late registration
    /// is waiting (then the caller takes the lock and looks).
    @inlinable
    func trySetDelivered() -> Bool {
        var current = bits.load(ordering: .relaxed)
        while current & (Self.locked | Self.lateRegistered) == 0 {
            let (exchanged, original) = bits.compareExchange(
                expected: current,
                desired: current | Self.delivered,
                successOrdering: .releasing,
                failureOrdering: .relaxed
            )
            if exchanged { return true }
            current = original  // only the claim count moved: try again
        }
        return false
    }

    /// Clears `flags`. Call with the lock held.
    @inlinable
    func clear(_ flags: UInt32) {
        bits.bitwiseAnd(~flags, ordering: .relaxed)
    }

    /// Adds a claim. Call with the lock held or not: the add is atomic.
    @inlinable
    func addClaim() {
        bits.add(Self.oneClaim, ordering: .relaxed)
    }

    /// Removes a claim; returns whether it was the last one.
    @inlinable
    func removeClaim() -> Bool {
        let after = bits.subtract(Self.oneClaim, ordering: .acquiringAndReleasing).newValue
        return after >> 8 == 0
    }
}
