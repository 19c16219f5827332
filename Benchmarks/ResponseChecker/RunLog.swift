import Foundation

/// Everything one run of a program observed, stamped with a logical clock.
///
/// Threads of the run, callbacks and tasks write here; the model reads it once the run is over.
/// `NSLock` (a pthread mutex) rather than `Mutex`, because the thread sanitizer on Linux does not
/// see `Mutex` and would report the run's own bookkeeping (STYLE.md, shared state).
final class RunLog: @unchecked Sendable {
    /// One run of a consumer (a callback, a read, an await) or of a cancellation handler.
    struct Observation: Sendable {
        /// `nil` for a read or await that gave up after its timeout (a hang).
        var outcome: Outcome?
        var start: Int
        var end: Int
    }

    // Safety: every stored property below is read and written only while `lock` is held.
    private let lock = NSLock()
    private var clock = 0
    private var observations: [Int: [Observation]] = [:]
    private var handlerRuns: [Int: [Observation]] = [:]
    private var eventWon: [Int: Bool] = [:]
    private var callbackRuns = 0
    private var isSealed = false
    private let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
    }

    /// The next instant of the logical clock: orders events across threads, since each tick is
    /// taken under the lock.
    func tick() -> Int {
        lock.withLock {
            clock += 1
            return clock
        }
    }

    /// Records what step `step` saw. A callback run after the model has looked is counted as late
    /// (a duplicate, or one that ran very late), which the model reports.
    func record(step: Int, _ observation: Observation, isCallback: Bool) {
        lock.withLock {
            if isSealed { LateRuns.shared.add(seed: seed) }
            observations[step, default: []].append(observation)
            if isCallback { callbackRuns += 1 }
        }
    }

    func recordHandler(node: Int, start: Int, end: Int) {
        lock.withLock { handlerRuns[node, default: []].append(Observation(outcome: nil, start: start, end: end)) }
    }

    /// Records whether event `step` finished its response (`succeed`, `fail` and `cancel` say so).
    func recordEvent(step: Int, won: Bool) {
        lock.withLock { eventWon[step] = won }
    }

    var callbackRunCount: Int { lock.withLock { callbackRuns } }

    /// Stops the run's bookkeeping: what arrives later is late.
    func seal() {
        lock.withLock { isSealed = true }
    }

    func observations(of step: Int) -> [Observation] { lock.withLock { observations[step] ?? [] } }
    func handlerRuns(of node: Int) -> [Observation] { lock.withLock { handlerRuns[node] ?? [] } }
    /// `nil` when the event did not run (its resolver was already dropped).
    func won(_ step: Int) -> Bool? { lock.withLock { eventWon[step] } }
}

/// Callbacks that ran after their program was checked (a second run of one callback, most
/// likely), gathered across programs: the run reports them at the end, with their seeds.
final class LateRuns: @unchecked Sendable {
    static let shared = LateRuns()

    // Safety: `seeds` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var seeds: [UInt64] = []

    func add(seed: UInt64) {
        lock.withLock { seeds.append(seed) }
    }

    var all: [UInt64] { lock.withLock { seeds } }
}
