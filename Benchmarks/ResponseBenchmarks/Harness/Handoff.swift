import Dispatch
import Synchronization

/// Passes one value from the thread that makes it to a thread that blocks until it arrives.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class Handoff<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func put(_ newValue: Value) {
        value.withLock { $0 = newValue }
        ready.signal()
    }

    /// Blocks until ``put(_:)`` has run, then returns its value.
    func take() -> Value {
        ready.wait()
        return value.withLock { $0.take()! }
    }
}
