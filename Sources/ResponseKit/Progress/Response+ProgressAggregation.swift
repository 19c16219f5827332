extension Response {
    /// Makes this response's progress the mean of `inputs`' progress (a succeeded input counts as
    /// done; with `countingFailuresAsDone`, so does a failed one), starting only when someone
    /// observes this response's progress: until then it costs one stored closure.
    @usableFromInline
    func followProgress<Input: Sendable>(of inputs: [Response<Input>], countingFailuresAsDone: Bool = false) {
        guard !inputs.isEmpty else { return }
        whenProgressIsFirstObserved { [self] in
            let mean = ProgressMean(count: inputs.count)
            for (index, input) in inputs.enumerated() {
                input.addProgressObserver(
                    .inline { fraction in
                        self.reportProgress(mean.update(index, to: fraction))
                    })
                if countingFailuresAsDone {
                    // A failed input reports no final 1 of its own: its end is the 1.
                    input.addInternalObserver(.observer { _, _ in self.reportProgress(mean.update(index, to: 1)) })
                }
            }
        }
    }
}

/// The mean of several fractions, updated one at a time from any thread.
final class ProgressMean: Sendable {
    private struct State {
        var fractions: [Double]
        var sum = 0.0
    }

    private let state: LockedBox<State>

    init(count: Int) {
        state = LockedBox.make(State(fractions: Array(repeating: 0, count: count)))
    }

    /// Sets fraction `index` (only upwards) and returns the mean.
    func update(_ index: Int, to fraction: Double) -> Double {
        state.withLock { state in
            let raised = Swift.max(state.fractions[index], fraction)
            state.sum += raised - state.fractions[index]
            state.fractions[index] = raised
            return state.sum / Double(state.fractions.count)
        }
    }
}
