/// The documented rules, checked against what one run observed.
///
/// Where the docs leave an outcome to a race, the model accepts the outcomes some order of the
/// racing events gives, and then asks every consumer of that response to agree on it. A
/// response cancelled by no `cancel()` of its own must have been let go of by everything that
/// held it (Model+Cancellation.swift).
struct Model {
    let program: Program
    let run: RunResult
    let cancellable: [Bool]
    /// Broken rules, one sentence each.
    private(set) var violations: [String] = []
    /// How many single facts were compared.
    private(set) var checks = 0

    /// Checks every rule. A response still pending at the end is a hang; the rules about its
    /// outcome are then skipped.
    static func check(_ program: Program, _ run: RunResult) -> Model {
        var model = Model(program: program, run: run, cancellable: program.cancellableByConsumers())
        for node in program.nodes.indices {
            guard let outcome = run.finalOutcomes[node] else {
                model.fail("hang: r\(node) still pending after \(Runner.timeout)")
                continue
            }
            if case .other = outcome { model.fail("r\(node) finished with \(outcome)") }
            model.checkConsumers(of: node, outcome)
            model.checkOrder(of: node)
            model.checkOutcome(of: node, outcome)
            model.checkFirstFinisher(of: node, outcome)
            model.checkHandler(of: node, outcome)
            model.checkHeldReleased(beforeCallbacksOf: node)
            model.checkAlways(node, outcome)
        }
        if run.threadsHung { model.fail("hang: a racing thread had not returned after its deadline") }
        return model
    }

    mutating func fail(_ rule: String) {
        violations.append(rule)
    }

    mutating func expect(_ holds: Bool, _ rule: @autoclosure () -> String) {
        checks += 1
        if !holds { fail(rule()) }
    }

    /// Every consumer sees the response's one outcome; a callback runs exactly once when its kind
    /// matches the outcome (never otherwise); a read or await that gave up is a hang.
    private mutating func checkConsumers(of node: Int, _ outcome: Outcome) {
        for (index, step) in program.steps.enumerated() where step.node == node && step.action.isConsumer {
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

    /// Callbacks on a serial executor (`.immediate`, a serial queue, `.main`, a manual executor)
    /// start in registration order, where that order is known: by phase, and within one thread.
    /// Main-actor callbacks keep their order among themselves, and share the plain callbacks'
    /// order on `.main` (Threading.md's table). Actor-isolated callbacks have no set order.
    private mutating func checkOrder(of node: Int) {
        let executor = program.executor(of: node)
        guard executor.isSerial else { return }
        let callbacks = program.steps.indices.filter {
            program.steps[$0].node == node && program.steps[$0].action.isCallback
                && program.steps[$0].action != .actorOnResult
        }
        for (position, first) in callbacks.enumerated() {
            for second in callbacks[(position + 1)...] where program.registers(first, before: second) {
                let onMainActor = [first, second].map { program.steps[$0].action == .mainActorOnResult }
                guard executor == .main || onMainActor[0] == onMainActor[1] else { continue }
                guard let a = run.log.observations(of: first).first, let b = run.log.observations(of: second).first
                else { continue }
                expect(
                    a.start < b.start, "r\(node): callback step \(second) ran before step \(first), registered earlier")
            }
        }
    }

    /// An `always` body runs exactly once (its doc): with the input's outcome, or with
    /// `CancellationError` when the response `always` made was cancelled first. The input may
    /// also finish first and the made response be cancelled before it passes the outcome on: then
    /// the body saw the input's outcome and the consumers a cancellation.
    private mutating func checkAlways(_ node: Int, _ outcome: Outcome) {
        guard case .always(let input) = program.nodes[node], let given = run.finalOutcomes[input] else { return }
        let runs = run.log.alwaysRuns(of: node)
        expect(runs.count == 1, "r\(node): its always body ran \(runs.count) times, not once")
        for saw in runs {
            let allowed: Set<Outcome> = outcome == .cancelled ? [given, .cancelled] : [outcome]
            expect(
                allowed.contains(saw),
                "r\(node): its always body saw \(saw); input \(given), consumers \(outcome)")
        }
    }

    /// A cancellation handler runs exactly when its response was cancelled, and returns before
    /// any of that response's failure callbacks starts.
    private mutating func checkHandler(of node: Int, _ outcome: Outcome) {
        guard case .source(_, cancelHandler: true) = program.nodes[node] else { return }
        let handlerRuns = run.log.handlerRuns(of: node)
        let expectedRuns = outcome == .cancelled ? 1 : 0
        expect(
            handlerRuns.count == expectedRuns, "r\(node): onCancel ran \(handlerRuns.count) times, outcome \(outcome)")
        guard let handler = handlerRuns.first else { return }
        for (index, step) in program.steps.enumerated() where step.node == node && step.action.isCallback {
            for callback in run.log.observations(of: index) {
                expect(
                    handler.end < callback.start,
                    "r\(node): failure callback step \(index) started before onCancel returned")
            }
        }
    }

    /// What a response alone held, and let go of when it finished, is done (cancelled, its
    /// handler returned) before any of its callbacks starts: a race's losers are cancelled
    /// before anyone hears the winner.
    private mutating func checkHeldReleased(beforeCallbacksOf node: Int) {
        let held = program.heldOnlyThrough(node)
        guard !held.isEmpty else { return }
        for (index, step) in program.steps.enumerated() where step.node == node && step.action.isCallback {
            for callback in run.log.observations(of: index) {
                for (position, input) in held.enumerated() where run.finalOutcomes[input] == .cancelled {
                    expect(
                        callback.heldDone[position],
                        "r\(node): callback step \(index) ran while r\(input), which only r\(node) held, was not yet cancelled"
                    )
                    for handler in run.log.handlerRuns(of: input) {
                        expect(
                            handler.end < callback.start,
                            "r\(node): callback step \(index) started before r\(input)'s onCancel returned")
                    }
                }
            }
        }
    }
}
