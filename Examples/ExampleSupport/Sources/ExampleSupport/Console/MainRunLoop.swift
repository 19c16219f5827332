import Foundation

/// Keeps the main queue running on the main thread, for callback-style examples that have no
/// `ServiceRunner`.
public nonisolated enum MainRunLoop {
    /// Runs the main run loop until the process exits: main-queue callbacks (and so main-actor
    /// callbacks of responses) are delivered on the main thread.
    ///
    /// Not `dispatchMain()`: on Linux it drains the main queue on another thread, which breaks
    /// `Thread.isMainThread` and blocking reads' servicing of the main queue.
    ///
    /// - Warning: Call it from the main thread (top-level code in `main.swift`).
    public static func run() -> Never {
        precondition(Thread.isMainThread, "MainRunLoop.run() must be called on the main thread, from main.swift")
        while true {
            // Returns after each batch of main-queue work; the main queue keeps the run loop alive.
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
    }
}
