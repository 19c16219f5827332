extension Model {
    /// A combinator takes the first of its inputs' outcomes that decides it (`race`: any
    /// outcome; `any`: a value; `all` and `zip`: a failure). An input's event that finishes it
    /// hands the combinator its outcome before the call returns (links run inline), so an input
    /// whose event returned before the chosen input's event began must have decided it instead.
    ///
    /// Checked where every input with the chosen outcome was finished by a timed event of its
    /// own, and the combinator was not finished by a `cancel()` or by its holders letting go.
    mutating func checkFirstFinisher(of node: Int, _ outcome: Outcome) {
        let decides: (Outcome) -> Bool
        switch program.nodes[node] {
        case .race: decides = { _ in true }
        case .any: decides = { !$0.isFailure }
        case .all, .zip: decides = { $0.isFailure }
        default: return
        }
        guard decides(outcome) else { return }  // `any`'s aggregate, `all`'s value: every input counted
        if outcome == .cancelled && (cancellable[node] || program.hasCancelStep(node)) { return }
        let inputs = Set(program.nodes[node].inputs)
        var finished: [Int: (start: Int, end: Int)] = [:]
        for input in inputs {
            if let winner = winningEvents(of: input).first, let times = run.log.times(of: winner) {
                finished[input] = times
            }
        }
        let chosen = inputs.filter { run.finalOutcomes[$0] == outcome }
        guard !chosen.isEmpty, chosen.allSatisfy({ finished[$0] != nil }) else { return }
        let chosenStart = chosen.map { finished[$0]!.start }.min()!
        let name = "r\(node) = \(program.text(of: node))"
        for other in inputs.subtracting(chosen) {
            guard let times = finished[other], let seen = run.finalOutcomes[other], decides(seen) else { continue }
            expect(
                times.end > chosenStart,
                "\(name): took \(outcome), though r\(other) finished with \(seen) before any input with that outcome began to"
            )
        }
    }
}
