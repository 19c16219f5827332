/// Makes a failing program smaller: drops one step, or one response nothing is built on, at a
/// time, and keeps the drop when the smaller program still fails in one of several runs (a race
/// may need a few tries to show). Greedy and simple; good enough to point at the broken rule.
enum Shrinker {
    /// - Parameters:
    ///   - program: a program that failed.
    ///   - attempts: runs of each candidate; it still fails if any run breaks a rule.
    ///   - budget: candidates tried at most.
    /// - Returns: the smallest program found that still fails, and its broken rules.
    static func shrink(_ program: Program, attempts: Int, budget: Int) -> (Program, [String]) {
        var smallest = program
        var rules: [String] = []
        var tried = 0
        var progress = true
        while progress && tried < budget {
            progress = false
            for candidate in smallest.smallerVariants() where tried < budget {
                tried += 1
                if let broken = firstFailure(of: candidate, attempts: attempts) {
                    smallest = candidate
                    rules = broken
                    progress = true
                    break
                }
            }
        }
        return (smallest, rules)
    }

    /// The broken rules of the first of `attempts` runs that breaks any, or `nil`.
    static func firstFailure(of program: Program, attempts: Int) -> [String]? {
        for _ in 0..<attempts {
            let model = Model.check(program, Runner.run(program))
            if !model.violations.isEmpty { return model.violations }
        }
        return nil
    }
}

extension Program {
    /// Every program one drop smaller that is still well formed: each source keeps an event that
    /// finishes it, so that nothing is left pending by the drop itself.
    func smallerVariants() -> [Program] {
        var variants: [Program] = []
        for index in steps.indices {
            var variant = self
            variant.steps.remove(at: index)
            if variant.isWellFormed { variants.append(variant) }
        }
        for node in nodes.indices where !nodes.contains(where: { $0.inputs.contains(node) }) && nodes.count > 1 {
            var variant = self
            variant.nodes.remove(at: node)
            variant.nodes = variant.nodes.map { $0.renumbered { $0 > node ? $0 - 1 : $0 } }
            variant.steps = steps.filter { $0.node != node }.map { step in
                var step = step
                if step.node > node { step.node -= 1 }
                return step
            }
            if variant.isWellFormed { variants.append(variant) }
        }
        return variants
    }

    var isWellFormed: Bool {
        nodes.indices.allSatisfy { node in
            !nodes[node].isSource || steps.contains { $0.node == node && $0.action.isEvent }
        }
    }
}
