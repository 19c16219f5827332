extension Program {
    /// Generates the program `seed` names: 3 to 20 responses (1 to 6 of them sources, pending or
    /// with a body), 1 to 3 racing resolutions per pending source, a few cancels of derived
    /// responses, moves of the manual clock and drains of the manual executor, and consumers of
    /// every kind spread over the phases.
    ///
    /// Every pending source gets at least one event that finishes it (a result, a cancel or a
    /// dropped resolver), so a response still pending at the end is a hang, never the program's
    /// fault.
    static func generate(seed: UInt64) -> Program {
        var random = SplitMix64(seed: seed)
        let executors = Executor.allCases
        let count = Int.random(in: 3...20, using: &random)
        let sourceCount = Int.random(in: 1...min(6, count - 1), using: &random)
        var nodes: [Node] = []
        for index in 0..<count {
            // Sources first, then derivations of any earlier response.
            if index < sourceCount {
                let executor = executors.randomElement(using: &random)!
                if Int.random(in: 0..<5, using: &random) == 0 {
                    nodes.append(.body(value: Int.random(in: 0...99, using: &random), executor))
                } else {
                    nodes.append(.source(executor, cancelHandler: Bool.random(using: &random)))
                }
                continue
            }
            let pick = { (random: inout SplitMix64) in Int.random(in: 0..<index, using: &random) }
            let some = { (random: inout SplitMix64) -> [Int] in
                Array(Set((0..<Int.random(in: 1...3, using: &random)).map { _ in pick(&random) })).sorted()
            }
            let executor = executors.randomElement(using: &random)!
            let clock: Clock = Bool.random(using: &random) ? .manual : .real
            let add = Int.random(in: 1...9, using: &random)
            switch Int.random(in: 0..<14, using: &random) {
            case 0: nodes.append(.map(input: pick(&random), add: add))
            case 1: nodes.append(.flatMap(input: pick(&random), add: add))
            case 2: nodes.append(.recover(input: pick(&random), value: 100 + add))
            case 3: nodes.append(.flatMapError(input: pick(&random), add: add))
            case 4: nodes.append(.all(inputs: some(&random), executor))
            case 5: nodes.append(.race(inputs: some(&random), executor))
            case 6: nodes.append(.any(inputs: some(&random), executor))
            case 7: nodes.append(.allSettled(inputs: some(&random), executor))
            case 8, 9: nodes.append(.zip(pick(&random), pick(&random)))
            case 12: nodes.append(.mapError(input: pick(&random), add: add))
            case 13: nodes.append(.always(input: pick(&random)))
            case 10:
                nodes.append(.timeout(input: pick(&random), clock, limit: Int.random(in: 0...300, using: &random)))
            default:
                nodes.append(.delay(input: pick(&random), clock, interval: Int.random(in: 0...200, using: &random)))
            }
        }

        let racers = Int.random(in: 2...3, using: &random)
        let readerThread = racers  // reads run on a thread of their own
        var steps: [Step] = []
        let during = { (random: inout SplitMix64) in Int.random(in: 0..<racers, using: &random) }
        for node in 0..<count {
            switch nodes[node] {
            case .source:
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let action: Action
                    switch Int.random(in: 0..<100, using: &random) {
                    case 0..<35: action = .succeed(Int.random(in: 0...99, using: &random))
                    case 35..<60: action = .fail(code: Int.random(in: 1...9, using: &random))
                    case 60..<80: action = .cancel
                    default: action = .dropResolver
                    }
                    steps.append(Step(node: node, action: action, phase: .during, thread: during(&random)))
                }
            default:
                if Int.random(in: 0..<6, using: &random) == 0 {
                    steps.append(Step(node: node, action: .cancel, phase: .during, thread: during(&random)))
                }
            }
        }
        // The manual clock and executor are worked from one thread at a time, so their order holds.
        let phases: [Phase] = [.before, .during, .during, .after]
        let program = Program(seed: seed, nodes: nodes, steps: [], threadCount: racers + 1)
        if nodes.contains(where: { if case .timeout(_, .manual, _) = $0 { true } else { false } })
            || program.hasManualDelay
        {
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let action = Action.advance(microseconds: Int.random(in: 0...200, using: &random))
                steps.append(Step(node: 0, action: action, phase: phases.randomElement(using: &random)!, thread: 0))
            }
        }
        if program.usesCustomExecutor {
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                steps.append(Step(node: 0, action: .drain, phase: phases.randomElement(using: &random)!, thread: 0))
            }
        }
        let consumers: [Action] = [
            .onCompletion, .onFailure, .onResult, .mainActorOnResult, .actorOnResult, .read, .await,
        ]
        for _ in 0..<Int.random(in: 1...(2 * count), using: &random) {
            let node = Int.random(in: 0..<count, using: &random)
            var action = consumers.randomElement(using: &random)!
            // A read of a response that waits for the manual clock would wait for the run's end.
            if action == .read && program.waitsForManualClock(node) { action = .await }
            var phase = phases.randomElement(using: &random)!
            if action == .read && phase == .before { phase = .during }  // the controller must not block yet
            let thread = action == .read ? readerThread : during(&random)
            steps.append(Step(node: node, action: action, phase: phase, thread: thread))
        }
        steps.shuffle(using: &random)
        return Program(seed: seed, nodes: nodes, steps: steps, threadCount: racers + 1)
    }
}
