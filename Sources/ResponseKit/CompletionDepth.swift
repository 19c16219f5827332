#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps inline completions from growing the stack without bound.
///
/// Completing a response delivers its inline observers, and in a `map` chain each observer
/// completes the next response: one stack frame set per step, so a chain of thousands of steps
/// finishing inline would overflow the stack (measured: a crash at about 5,000 steps in debug).
/// Completions nest freely up to ``limit`` deep on a thread; deeper ones are queued and run by
/// the outermost completion when it unwinds, in order, as swift-nio runs its callback lists.
@usableFromInline
enum CompletionDepth {
    /// How deep completions nest before they are queued instead.
    @usableFromInline static var limit: Int { 64 }

    /// This thread's depth times two, plus one when work is deferred: kept in the key's value
    /// itself, so entering and leaving cost no allocation and no reference counting.
    private static let depthKey: pthread_key_t = makeKey(destructor: nil)

    /// This thread's queue of deferred completions, made the first time one is deferred.
    private static let queueKey: pthread_key_t = makeKey { pointer in
        if let pointer = pointer as UnsafeMutableRawPointer? {
            Unmanaged<DeferredCompletions>.fromOpaque(pointer).release()
        }
    }

    #if canImport(Darwin)
    private typealias KeyDestructor = @convention(c) (UnsafeMutableRawPointer) -> Void
    #else
    private typealias KeyDestructor = @convention(c) (UnsafeMutableRawPointer?) -> Void
    #endif

    private static func makeKey(destructor: KeyDestructor?) -> pthread_key_t {
        var key = pthread_key_t()
        let error = pthread_key_create(&key, destructor)
        precondition(error == 0, "pthread_key_create failed: \(error)")
        return key
    }

    private static var word: Int {
        get { Int(bitPattern: pthread_getspecific(depthKey)) }
        set { pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: newValue)) }
    }

    /// Enters one level; `false` (without entering) when the caller must defer its work instead.
    @usableFromInline
    static func enter() -> Bool {
        let current = word
        guard current >> 1 < limit else { return false }
        word = current + 2
        return true
    }

    /// Leaves one level; the outermost level runs whatever was deferred meanwhile.
    @usableFromInline
    static func exit() {
        let current = word - 2
        word = current
        guard current == 1 else { return }  // depth 0 with deferred work
        word = 2
        let queue = existingQueue!
        while let work = queue.popFirst() { work() }
        word = 0
    }

    /// Queues `work` to run when the outermost completion on this thread unwinds.
    @usableFromInline
    static func deferWork(_ work: @escaping () -> Void) {
        let queue: DeferredCompletions
        if let existing = existingQueue {
            queue = existing
        } else {
            queue = DeferredCompletions()
            pthread_setspecific(queueKey, Unmanaged.passRetained(queue).toOpaque())
        }
        queue.append(work)
        word |= 1
    }

    private static var existingQueue: DeferredCompletions? {
        guard let pointer = pthread_getspecific(queueKey) else { return nil }
        return Unmanaged<DeferredCompletions>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// A first-in, first-out queue of completions that one thread deferred; only that thread uses it
/// (it is reached through a thread-local key).
private final class DeferredCompletions {
    private var items: [() -> Void] = []
    private var head = 0

    func append(_ work: @escaping () -> Void) {
        items.append(work)
    }

    func popFirst() -> (() -> Void)? {
        guard head < items.count else {
            items.removeAll(keepingCapacity: true)
            head = 0
            return nil
        }
        defer { head += 1 }
        return items[head]
    }
}
