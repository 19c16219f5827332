extension Program {
    /// The responses built on node `node`, once per use (`zip(r1, r1)` lists r2 twice).
    func dependents(of node: Int) -> [Int] {
        nodes.indices.flatMap { dependent in nodes[dependent].inputs.filter { $0 == node }.map { _ in dependent } }
    }

    func hasCancelStep(_ node: Int) -> Bool {
        steps.contains { $0.node == node && $0.action == .cancel }
    }

    /// Which responses a consumer's cancellation may reach, by Threading.md's "Who waits for a
    /// response": a derived response that finishes early lets go of its input (a combinator done
    /// before it, a timeout run out, any derived response cancelled), and a pending response whose
    /// last claim goes that way is cancelled. A callback registered before the race starts is a
    /// claim that never goes, so its response can be cancelled only by `cancel()` or not at all
    /// (bodies and real-time timers wait for the race to start: `World.gate`).
    func cancellableByConsumers() -> [Bool] {
        var cancellable = Array(repeating: false, count: nodes.count)
        // Dependents come after their inputs, so walking backwards settles each dependent first.
        for node in nodes.indices.reversed() {
            let heldForever = steps.indices.contains { index in
                steps[index].node == node && steps[index].phase == .before && steps[index].action.isCallback
                    && !steps[..<index].contains { step in
                        // A move of the manual clock before it may have timed something out already.
                        if case .advance = step.action { step.phase == .before } else { false }
                    }
            }
            if heldForever { continue }
            for dependent in dependents(of: node) {
                let mayLetGo: Bool
                switch nodes[dependent] {
                case .all, .race, .any, .zip, .timeout: mayLetGo = true
                default: mayLetGo = false
                }
                if mayLetGo || cancellable[dependent] || hasCancelStep(dependent) { cancellable[node] = true }
            }
        }
        return cancellable
    }

    /// The one response that holds a claim on `node`, when that is all that can: a single use by
    /// one dependent, and no consumer or `cancel()` of its own. Such a response is cancelled by
    /// nothing but its holder letting go.
    func soleHolder(of node: Int) -> Int? {
        let holders = dependents(of: node)
        guard holders.count == 1 else { return nil }
        let ownSteps = steps.contains { $0.node == node && ($0.action.isConsumer || $0.action == .cancel) }
        return ownSteps ? nil : holders[0]
    }

    /// The inputs that only `node` holds: if one of them ends cancelled, `node` finishing let go
    /// of it, so it must be done, with its cancellation handler returned, before any callback of
    /// `node` starts (Threading.md, "The order of a finish").
    ///
    /// Direct inputs only, as the rule says: an input's own inputs are let go in the same
    /// completion, which may still run when a callback starts. And none for `all`, `zip` and
    /// `allSettled`, whose response in the run is a `map` folding the combinator's value, so their
    /// inputs are two steps away.
    func heldOnlyThrough(_ node: Int) -> [Int] {
        switch nodes[node] {
        case .all, .zip, .allSettled: return []
        default: return Array(Set(nodes[node].inputs.filter { soleHolder(of: $0) == node })).sorted()
        }
    }

    /// Whether node `node` may still be pending when the racing threads have returned: it waits
    /// on a body on a global queue, on a timer, or on the end of the run's manual clock.
    func mayFinishLate(_ node: Int) -> Bool {
        switch nodes[node] {
        case .body, .delay, .timeout(_, .real, _): true
        default: nodes[node].inputs.contains { mayFinishLate($0) }
        }
    }

    /// Whether node `node` finishes only once the manual clock moves (a blocking read of it
    /// before the run's end would wait for nothing).
    func waitsForManualClock(_ node: Int) -> Bool {
        if case .delay(_, .manual, _) = nodes[node] { return true }
        return nodes[node].inputs.contains { waitsForManualClock($0) }
    }

    /// Whether step `first` is registered before step `second` in an order the program fixes:
    /// an earlier phase, or the same phase on the same thread (the controller is one thread).
    func registers(_ first: Int, before second: Int) -> Bool {
        let (a, b) = (steps[first], steps[second])
        if a.phase != b.phase { return a.phase.rawValue < b.phase.rawValue }
        return (a.phase != .during || a.thread == b.thread) && first < second
    }
}
