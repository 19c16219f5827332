import Dispatch
import Foundation

/// Answers "are we on the main queue?", which `Thread.isMainThread` alone cannot: on Linux, after
/// `dispatchMain()` (and in async `main`s such as Swift Testing's runner) the main queue runs on
/// a thread that is not the main thread.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main thread or inside a main-queue job.
    static var isCurrent: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
    }
}
