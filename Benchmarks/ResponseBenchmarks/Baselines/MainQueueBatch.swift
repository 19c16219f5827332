import Dispatch
import Synchronization

/// ResponseKit's main-queue delivery written by hand: answers from any thread join one list, and
/// one `DispatchQueue.main` job runs every answer that is ready, instead of a `main.async` each.
///
/// Used by W7's "answers batched" alternative, so that ResponseKit's design is measured without
/// ResponseKit's code: what is left between the two is ResponseKit's own cost.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class MainQueueBatch: Sendable {
    /// An answer and the main-actor code that takes it.
    struct Answer: Sendable {
        let receive: @MainActor @Sendable (Int) -> Void
        let value: Int
    }

    private struct State {
        var answers: [Answer] = []
        /// A main-queue job that runs the answers is on its way.
        var drainScheduled = false
    }

    /// One batch for the process, as ResponseKit has one main queue of its own.
    static let shared = MainQueueBatch()

    private let state = Mutex(State())

    /// Adds `answer`; the first answer since the last drain schedules one.
    func deliver(_ answer: Answer) {
        let schedules = state.withLock { state in
            state.answers.append(answer)
            defer { state.drainScheduled = true }
            return !state.drainScheduled
        }
        if schedules {
            DispatchQueue.main.async { MainActor.assumeIsolated { self.drain() } }
        }
    }

    /// Runs every answer that is ready, then those that arrived meanwhile, until none is left.
    @MainActor
    private func drain() {
        var batch: [Answer] = []
        while true {
            state.withLock { state in
                swap(&batch, &state.answers)
                if batch.isEmpty { state.drainScheduled = false }
            }
            if batch.isEmpty { return }
            for answer in batch { answer.receive(answer.value) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
