import ResponseKit

/// Everything one run of a program observed, stamped with a logical clock.
///
/// Threads of the run, callbacks and tasks write here; the model reads it once the run is over.
/// The package's `LockedBox` (a pthread mutex, which the thread sanitizer sees) guards it.
final class RunLog: Sendable {
    /// One run of a consumer (a callback, a read, an await) or of a cancellation handler.
    struct Observation: Sendable {
        /// `nil` for a read or await that gave up after its timeout (a hang).
        var outcome: Outcome?
        var start: Int
        var end: Int
        /// For a callback: whether each response of `Program.heldOnlyThrough` its response was
        /// done when the callback started.
        var heldDone: [Bool] = []
    }

    private struct State {
        var clock = 0
        var observations: [Int: [Observation]] = [:]
        var handlerRuns: [Int: [Observation]] = [:]
        var eventWon: [Int: Bool] = [:]
        var eventTimes: [Int: (start: Int, end: Int)] = [:]
        var callbackRuns = 0
        var handlerRunCount = 0
        var alwaysRuns: [Int: [Outcome]] = [:]
        var alwaysRunCount = 0
        var isSealed = false
    }

    private let state = LockedBox.make(State())
    private let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
    }

    /// The next instant of the logical clock: orders events across threads, since each tick is
    /// taken under the lock.
    func tick() -> Int {
        state.withLock { state in
            state.clock += 1
            return state.clock
        }
    }

    /// Records what step `step` saw. A callback run after the model has looked is counted as late
    /// (a duplicate, or one that ran very late), which the model reports.
    func record(step: Int, _ observation: Observation, isCallback: Bool) {
        let late = state.withLock { state in
            state.observations[step, default: []].append(observation)
            if isCallback { state.callbackRuns += 1 }
            return state.isSealed
        }
        if late { LateRuns.shared.add(seed: seed) }
    }

    func recordHandler(node: Int, start: Int, end: Int) {
        state.withLock {
            $0.handlerRuns[node, default: []].append(Observation(outcome: nil, start: start, end: end))
            $0.handlerRunCount += 1
        }
    }

    var handlerRunCount: Int { state.withLock { $0.handlerRunCount } }

    /// Records a run of node `node`'s `always` body, and the outcome it was given.
    func recordAlways(node: Int, saw: Outcome) {
        state.withLock {
            $0.alwaysRuns[node, default: []].append(saw)
            $0.alwaysRunCount += 1
        }
    }

    var alwaysRunCount: Int { state.withLock { $0.alwaysRunCount } }
    func alwaysRuns(of node: Int) -> [Outcome] { state.withLock { $0.alwaysRuns[node] ?? [] } }

    /// Records whether event `step` finished its response (`succeed`, `fail` and `cancel` say so),
    /// and when the call began (`start`, a tick taken before it) and returned (now).
    func recordEvent(step: Int, won: Bool, start: Int) {
        state.withLock { state in
            state.clock += 1
            state.eventWon[step] = won
            state.eventTimes[step] = (start, state.clock)
        }
    }

    var callbackRunCount: Int { state.withLock { $0.callbackRuns } }

    /// Stops the run's bookkeeping: what arrives later is late.
    func seal() {
        state.withLock { $0.isSealed = true }
    }

    func observations(of step: Int) -> [Observation] { state.withLock { $0.observations[step] ?? [] } }
    func handlerRuns(of node: Int) -> [Observation] { state.withLock { $0.handlerRuns[node] ?? [] } }
    /// `nil` when the event did not run (its resolver was already dropped).
    func won(_ step: Int) -> Bool? { state.withLock { $0.eventWon[step] } }
    /// When event `step`'s call began and returned; `nil` when it did not run.
    func times(of step: Int) -> (start: Int, end: Int)? { state.withLock { $0.eventTimes[step] } }
}

/// Callbacks that ran after their program was checked (a second run of one callback, most
/// likely), gathered across programs: the run reports them at the end, with their seeds.
final class LateRuns: Sendable {
    static let shared = LateRuns()

    private let seeds = LockedBox<[UInt64]>.make([])

    func add(seed: UInt64) {
        seeds.withLock { $0.append(seed) }
    }

    var all: [UInt64] { seeds.withLock { $0 } }
}
