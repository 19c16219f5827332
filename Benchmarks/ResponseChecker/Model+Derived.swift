extension Model {
    /// A derived response follows from its inputs' outcomes, or is cancelled when a consumer's
    /// cancellation may reach it (a combinator that finished first let go of it).
    mutating func checkDerived(_ node: Int, _ outcome: Outcome, cancellable: Bool) {
        let inputs = program.nodes[node].inputs.map { run.finalOutcomes[$0] }
        guard inputs.allSatisfy({ $0 != nil }) else { return }  // the input's hang is reported
        let given = inputs.map { $0! }
        if cancellable && outcome == .cancelled {
            expect(true, "")
            return
        }
        let failures = Set(given.filter(\.isFailure))
        let values = given.compactMap { if case .value(let value) = $0 { value } else { nil } }
        let name = "r\(node) = \(program.nodes[node])"
        switch program.nodes[node] {
        case .source:
            return
        case .map(_, let add):
            let expected: Outcome = values.first.map { .value($0 &* 3 &+ add) } ?? given[0]
            expect(outcome == expected, "\(name): map of \(given[0]) gave \(outcome), not \(expected)")
        case .flatMap(_, let add):
            var expected = given[0]
            if let value = values.first { expected = value % 2 == 0 ? .value(value &+ add) : .failed(code: add) }
            expect(outcome == expected, "\(name): flatMap of \(given[0]) gave \(outcome), not \(expected)")
        case .recover(_, let value):
            let expected: Outcome = given[0].isFailure && given[0] != .cancelled ? .value(value) : given[0]
            expect(outcome == expected, "\(name): recover of \(given[0]) gave \(outcome), not \(expected)")
        case .all:
            if failures.isEmpty {
                let expected = Outcome.value(values.reduce(0) { $0 &* 31 &+ $1 })
                expect(outcome == expected, "\(name): all of \(given) gave \(outcome), not \(expected)")
            } else {
                expect(failures.contains(outcome), "\(name): all of \(given) gave \(outcome), no input's failure")
            }
        case .race:
            expect(given.contains(outcome), "\(name): race of \(given) gave \(outcome), no input's outcome")
        case .zip:
            if failures.isEmpty {
                let expected = Outcome.value(values[0] &* 1000 &+ values[1])
                expect(outcome == expected, "\(name): zip of \(given) gave \(outcome), not \(expected)")
            } else {
                expect(failures.contains(outcome), "\(name): zip of \(given) gave \(outcome), no input's failure")
            }
        }
    }
}
