import Dispatch
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Answers "are we on the main queue?", which `Thread.isMainThread` alone cannot: on Linux, after
/// `dispatchMain()` (and in async `main`s such as Swift Testing's runner) the main queue runs on
/// a thread that is not the main thread.
@usableFromInline
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main thread or inside a main-queue job.
    @usableFromInline
    static var isCurrent: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
    }
}

/// Marks the threads that are running a transformation, so that the steps of a chain after the
/// first skip the main-queue check: they run on the thread the first step already found to be a
/// worker. (`DispatchQueue.getSpecific` is generic and unspecialised: measured with callgrind as
/// the largest cost of a `map` step.)
@usableFromInline
enum WorkerContext {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let error = pthread_key_create(&key, nil)
        precondition(error == 0, "pthread_key_create failed: \(error)")
        return key
    }()

    /// Whether the transformation may run right here: this thread is already running one, or it
    /// is not the main queue.
    @usableFromInline
    static var allowsInlineTransformation: Bool {
        pthread_getspecific(key) != nil || !MainQueue.isCurrent
    }

    /// Runs `body` with this thread marked as running a transformation.
    @usableFromInline
    static func run(_ body: () -> Void) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        body()
        pthread_setspecific(key, previous)
    }
}
