extension Model {
    /// A response's outcome is that of the one event that says it finished it (`succeed`, `fail`
    /// and `cancel` return whether they did); with none, what its inputs give (a source: a value
    /// of its body, `abandoned` after a dropped resolver), a `timeout`'s deadline where the clock
    /// could reach it, or a cancellation by everything that held it letting go.
    mutating func checkOutcome(of node: Int, _ outcome: Outcome) {
        let events = program.steps.indices.filter { program.steps[$0].node == node && program.steps[$0].action.isEvent }
        let winners = winningEvents(of: node)
        expect(winners.count <= 1, "r\(node): \(winners.count) events each say they finished it (steps \(winners))")
        if let winner = winners.first {
            let expected: Outcome
            switch program.steps[winner].action {
            case .succeed(let value): expected = .value(value)
            case .fail(let code): expected = .failed(code: code)
            default: expected = .cancelled
            }
            expect(
                outcome == expected, "r\(node): step \(winner) finished it with \(expected), consumers saw \(outcome)")
            return
        }
        var allowed = self.allowed(node)
        let said = events.map {
            "step \($0) \(program.steps[$0].action): \(run.log.won($0).map { "\($0)" } ?? "did not run")"
        }
        let name = "r\(node) = \(program.text(of: node))" + (said.isEmpty ? "" : " [\(said.joined(separator: ", "))]")
        if allowed.contains(outcome) {
            expect(true, "")
            return
        }
        if outcome == .cancelled {
            let letGo = letGoByAll(node)
            let given = inputs(of: node)
            expect(
                letGo,
                "\(name): cancelled, though no cancel() finished it and not everything that held it let go (inputs gave \(given))"
            )
            return
        }
        allowed.insert(.cancelled)
        let given = inputs(of: node)
        expect(false, "\(name): ended \(outcome); inputs \(given) allow \(allowed)")
    }

    /// The steps whose event says it finished node `node` (`succeed`, `fail` and `cancel` return
    /// whether they did): one at most, or a rule is broken.
    func winningEvents(of node: Int) -> [Int] {
        program.steps.indices.filter {
            program.steps[$0].node == node && program.steps[$0].action.isEvent && run.log.won($0) == true
        }
    }

    /// The final outcomes of node `node`'s inputs (all known: a hang of one is reported).
    func inputs(of node: Int) -> [Outcome] {
        program.nodes[node].inputs.compactMap { run.finalOutcomes[$0] }
    }

    /// The outcomes node `node` may end with when no `cancel()` finished it and nothing let go
    /// of it: what its operation makes of its inputs' outcomes.
    func allowed(_ node: Int) -> Set<Outcome> {
        let given = inputs(of: node)
        guard given.count == program.nodes[node].inputs.count else { return [] }
        let failures = Set(given.filter(\.isFailure))
        let values = given.compactMap { if case .value(let value) = $0 { value } else { nil } }
        switch program.nodes[node] {
        case .source:
            let dropped = program.steps.contains { $0.node == node && $0.action == .dropResolver }
            return dropped ? [.abandoned] : []
        case .body(let value, _):
            return [.value(value)]
        case .map(_, let add):
            return [values.first.map { .value($0 &* 3 &+ add) } ?? given[0]]
        case .flatMap(_, let add):
            guard let value = values.first else { return [given[0]] }
            return [value % 2 == 0 ? .value(value &+ add) : .failed(code: add)]
        case .recover(_, let value):
            return [given[0].isFailure && given[0] != .cancelled ? .value(value) : given[0]]
        case .flatMapError(_, let add):
            switch given[0] {
            case .value, .cancelled: return [given[0]]
            case .failed(let code) where code % 2 == 0: return [.value(200 &+ code)]
            default: return [.failed(code: 10 &+ add)]
            }
        case .mapError(_, let add):
            return [given[0] == .cancelled || !given[0].isFailure ? given[0] : .failed(code: 20 &+ add)]
        case .always:
            return [given[0]]
        case .all:
            return failures.isEmpty ? [.value(values.reduce(0) { $0 &* 31 &+ $1 })] : failures
        case .zip:
            return failures.isEmpty ? [.value(values[0] &* 1000 &+ values[1])] : failures
        case .race:
            return Set(given)
        case .any:
            return values.isEmpty ? [.aggregate(given)] : Set(values.map { .value($0) })
        case .allSettled:
            return [.value(Outcome.settled(given))]
        case .timeout(let input, let clock, let limit):
            return mayTimeOut(input: input, clock, limit: limit) ? [given[0], .deadlineExceeded] : [given[0]]
        case .delay:
            return [given[0]]
        }
    }

    /// A real-time timer may fire at any moment; a manual one only when the program's own
    /// moves of the clock reach its limit while the input may be pending, or when the input may
    /// still be pending as the run's end moves the clock far ahead.
    private func mayTimeOut(input: Int, _ clock: Program.Clock, limit: Int) -> Bool {
        guard clock == .manual else { return true }
        let moves = program.steps.filter {
            if case .advance = $0.action { $0.phase != .after } else { false }
        }
        let moved = moves.reduce(0) { total, step in
            if case .advance(let microseconds) = step.action { total + microseconds } else { total }
        }
        return (!moves.isEmpty && moved >= limit) || program.mayFinishLate(input)
    }
}
