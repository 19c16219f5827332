import Foundation

/// Runs work elsewhere and blocks the calling thread until it is done. The work must not need the
/// main queue: use ``MainRunLoop`` for that.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum Elsewhere {
    /// Runs `body` in a detached task (on the cooperative pool) and returns its result.
    static func inTask<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
        let handoff = Handoff<Value>()
        Task.detached { handoff.put(await body()) }
        return handoff.take()
    }

    /// Runs `body` on a new thread that is not the main thread, and returns its result.
    static func onThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
        let handoff = Handoff<Value>()
        let thread = Thread { handoff.put(body()) }
        thread.start()
        return handoff.take()
    }
}
