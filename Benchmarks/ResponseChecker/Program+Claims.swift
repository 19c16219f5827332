extension Program {
    /// Which responses a consumer's cancellation may reach, by Threading.md's "Who waits for a
    /// response": a combinator (`all`, `race`, `zip`) lets go of its inputs when it finishes, a
    /// derived response that is let go of lets go of its input, and a pending response whose last
    /// claim goes that way is cancelled. A callback registered before the race starts is a claim
    /// that never goes, so its response can be cancelled only by `cancel()` or not at all.
    func cancellableByConsumers() -> [Bool] {
        var cancellable = Array(repeating: false, count: nodes.count)
        // Dependents come after their inputs, so walking backwards settles each dependent first.
        for node in nodes.indices.reversed() {
            let heldForever = steps.contains { $0.node == node && $0.phase == .before && $0.action.isCallback }
            if heldForever { continue }
            for dependent in (node + 1)..<nodes.count where nodes[dependent].inputs.contains(node) {
                switch nodes[dependent] {
                case .all, .race, .zip: cancellable[node] = true
                default: cancellable[node] = cancellable[node] || cancellable[dependent]
                }
            }
        }
        return cancellable
    }

    /// Whether step `first` is registered before step `second` in an order the program fixes:
    /// an earlier phase, or the same phase on the same thread (the main thread is one thread).
    func registers(_ first: Int, before second: Int) -> Bool {
        let (a, b) = (steps[first], steps[second])
        if a.phase != b.phase { return a.phase.rawValue < b.phase.rawValue }
        return (a.phase != .during || a.thread == b.thread) && first < second
    }
}
