extension Program {
    /// Generates the program `seed` names: 3 to 20 responses (1 to 6 of them pending sources), 1
    /// to 3 racing resolutions per source, and consumers of every kind spread over the phases.
    ///
    /// Every source gets at least one event that finishes it (a result, a cancel or a dropped
    /// resolver), so a response still pending at the end is a hang, never the program's fault.
    static func generate(seed: UInt64) -> Program {
        var random = SplitMix64(seed: seed)
        let executors: [Executor] = [.immediate, .serial, .global]
        let count = Int.random(in: 3...20, using: &random)
        let sourceCount = Int.random(in: 1...min(6, count - 1), using: &random)
        var nodes: [Node] = []
        for index in 0..<count {
            // Sources first, then derivations of any earlier response.
            if index < sourceCount {
                let executor = executors.randomElement(using: &random)!
                nodes.append(.source(executor, cancelHandler: Bool.random(using: &random)))
                continue
            }
            let pick = { (random: inout SplitMix64) in Int.random(in: 0..<index, using: &random) }
            let some = { (random: inout SplitMix64) -> [Int] in
                Array(Set((0..<Int.random(in: 1...3, using: &random)).map { _ in pick(&random) })).sorted()
            }
            let add = Int.random(in: 1...9, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: nodes.append(.map(input: pick(&random), add: add))
            case 1: nodes.append(.flatMap(input: pick(&random), add: add))
            case 2: nodes.append(.recover(input: pick(&random), value: 100 + add))
            case 3: nodes.append(.all(inputs: some(&random), executors.randomElement(using: &random)!))
            case 4: nodes.append(.race(inputs: some(&random), executors.randomElement(using: &random)!))
            default: nodes.append(.zip(pick(&random), pick(&random)))
            }
        }

        let racers = Int.random(in: 2...3, using: &random)
        let readerThread = racers  // reads run on a thread of their own
        var steps: [Step] = []
        for source in 0..<sourceCount {
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let action: Action
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<35: action = .succeed(Int.random(in: 0...99, using: &random))
                case 35..<60: action = .fail(code: Int.random(in: 1...9, using: &random))
                case 60..<80: action = .cancel
                default: action = .dropResolver
                }
                steps.append(
                    Step(
                        node: source, action: action, phase: .during, thread: Int.random(in: 0..<racers, using: &random)
                    ))
            }
        }
        let consumers: [Action] = [.onCompletion, .onFailure, .onResult, .read, .await]
        for _ in 0..<Int.random(in: 1...(2 * count), using: &random) {
            let node = Int.random(in: 0..<count, using: &random)
            let action = consumers.randomElement(using: &random)!
            var phase: Phase = [.before, .during, .during, .after].randomElement(using: &random)!
            if action == .read && phase == .before { phase = .during }  // the main thread must not block yet
            let thread = action == .read ? readerThread : Int.random(in: 0..<racers, using: &random)
            steps.append(Step(node: node, action: action, phase: phase, thread: thread))
        }
        steps.shuffle(using: &random)
        return Program(seed: seed, nodes: nodes, steps: steps, threadCount: racers + 1)
    }
}
