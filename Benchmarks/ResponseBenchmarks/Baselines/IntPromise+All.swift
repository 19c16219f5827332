import Synchronization

/// The floor's fan-in, for W5: one promise of every value, in order.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
extension IntPromise {
    static func all(_ promises: [IntPromise]) -> MutexPromise<[Int]> {
        guard !promises.isEmpty else { return MutexPromise(resolvedWith: []) }
        let combined = MutexPromise<[Int]>()
        let collector = FanInCollector(count: promises.count)
        for (index, promise) in promises.enumerated() {
            promise.observe { value in
                if let values = collector.record(value, at: index) { combined.resolve(values) }
            }
        }
        return combined
    }
}

/// The values of a fan-in as they arrive, and how many are still missing.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
private final class FanInCollector: Sendable {
    private struct State {
        var values: [Int]
        var missing: Int
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(values: Array(repeating: 0, count: count), missing: count))
    }

    /// Stores `value`; returns every value once the last one has arrived.
    func record(_ value: Int, at index: Int) -> [Int]? {
        state.withLock { state in
            state.values[index] = value
            state.missing -= 1
            return state.missing == 0 ? state.values : nil
        }
    }
}
