/// The documented rules, checked against what one run observed.
///
/// Where the docs leave an outcome to a race, the model accepts any outcome some order of the
/// racing events gives, and then asks every consumer of that response to agree on it.
struct Model {
    let program: Program
    let run: RunResult
    /// Broken rules, one sentence each.
    private(set) var violations: [String] = []
    /// How many single facts were compared.
    private(set) var checks = 0

    /// Checks every rule. A response still pending at the end is a hang; the rules about its
    /// outcome are then skipped.
    static func check(_ program: Program, _ run: RunResult) -> Model {
        var model = Model(program: program, run: run)
        let cancellable = program.cancellableByConsumers()
        for node in program.nodes.indices {
            guard let outcome = run.finalOutcomes[node] else {
                model.fail("hang: r\(node) still pending after \(Runner.timeout)")
                continue
            }
            if case .other = outcome { model.fail("r\(node) finished with \(outcome)") }
            model.checkConsumers(of: node, outcome)
            model.checkOrder(of: node)
            if program.nodes[node].isSource {
                model.checkSource(node, outcome, cancellable: cancellable[node])
            } else {
                model.checkDerived(node, outcome, cancellable: cancellable[node])
            }
        }
        if run.threadsHung { model.fail("hang: a racing thread had not returned after its deadline") }
        return model
    }

    private mutating func fail(_ rule: String) {
        violations.append(rule)
    }

    mutating func expect(_ holds: Bool, _ rule: @autoclosure () -> String) {
        checks += 1
        if !holds { fail(rule()) }
    }

    /// Every consumer sees the response's one outcome; a callback runs exactly once when its kind
    /// matches the outcome (never otherwise); a read or await that gave up is a hang.
    private mutating func checkConsumers(of node: Int, _ outcome: Outcome) {
        for (index, step) in program.steps.enumerated() where step.node == node && !step.action.isEvent {
            let seen = run.log.observations(of: index)
            let expectedRuns: Int
            switch step.action {
            case .onCompletion: expectedRuns = outcome.isFailure ? 0 : 1
            case .onFailure: expectedRuns = outcome.isFailure ? 1 : 0
            default: expectedRuns = 1
            }
            expect(
                seen.count == expectedRuns,
                "step \(index) r\(node).\(step.action) ran \(seen.count) times, not \(expectedRuns) (outcome \(outcome))"
            )
            for observation in seen {
                guard let saw = observation.outcome else {
                    fail("hang: step \(index) r\(node).\(step.action) gave up after \(Runner.timeout)")
                    continue
                }
                expect(saw == outcome, "step \(index) r\(node).\(step.action) saw \(saw), another consumer \(outcome)")
            }
        }
    }

    /// Callbacks on a serial executor (`.immediate`, a serial queue) start in registration order,
    /// where that order is known: by phase, and within one thread.
    private mutating func checkOrder(of node: Int) {
        guard program.executor(of: node) != .global else { return }
        let callbacks = program.steps.indices.filter {
            program.steps[$0].node == node && program.steps[$0].action.isCallback
        }
        for (position, first) in callbacks.enumerated() {
            for second in callbacks[(position + 1)...] where program.registers(first, before: second) {
                guard let a = run.log.observations(of: first).first, let b = run.log.observations(of: second).first
                else { continue }
                expect(
                    a.start < b.start, "r\(node): callback step \(second) ran before step \(first), registered earlier")
            }
        }
    }

    /// A source's outcome is that of the one event that says it finished it (`succeed`, `fail`
    /// and `cancel` return whether they did); with none, a dropped resolver (`abandoned`) or a
    /// consumer's cancellation reaching it. Its cancellation handler runs exactly when it was
    /// cancelled, and returns before any of its failure callbacks starts.
    private mutating func checkSource(_ node: Int, _ outcome: Outcome, cancellable: Bool) {
        let events = program.steps.indices.filter { program.steps[$0].node == node && program.steps[$0].action.isEvent }
        let winners = events.filter { run.log.won($0) == true }
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
        } else {
            var allowed: Set<Outcome> = []
            if events.contains(where: { program.steps[$0].action == .dropResolver }) { allowed.insert(.abandoned) }
            if cancellable { allowed.insert(.cancelled) }
            expect(
                allowed.contains(outcome),
                "r\(node): no event finished it, yet it ended \(outcome) (allowed: \(allowed))")
        }
        guard case .source(_, cancelHandler: true) = program.nodes[node] else { return }
        let handlerRuns = run.log.handlerRuns(of: node)
        let expectedRuns = outcome == .cancelled ? 1 : 0
        expect(
            handlerRuns.count == expectedRuns, "r\(node): onCancel ran \(handlerRuns.count) times, outcome \(outcome)")
        guard let handler = handlerRuns.first else { return }
        for (index, step) in program.steps.enumerated()
        where step.node == node && (step.action == .onFailure || step.action == .onResult) {
            for callback in run.log.observations(of: index) {
                expect(
                    handler.end < callback.start,
                    "r\(node): failure callback step \(index) started before onCancel returned")
            }
        }
    }
}
