extension Model {
    /// Whether everything that held node `node` let go of it, so that nothing but the claims'
    /// rule can have cancelled it: it may be cancelled that way at all (no callback registered
    /// before the race), and each response built on it finished without needing it.
    func letGoByAll(_ node: Int) -> Bool {
        cancellable[node] && program.dependents(of: node).allSatisfy { letGo(of: node, by: $0) }
    }

    /// Whether `dependent` finished without needing `node`: its own `cancel()` finished it, it
    /// was let go of in turn, it timed out, or it is a combinator another input decided.
    private func letGo(of node: Int, by dependent: Int) -> Bool {
        guard let outcome = run.finalOutcomes[dependent] else { return true }  // its hang is reported
        // Its own `cancel()` finished it (the only event a derived response has).
        if !winningEvents(of: dependent).isEmpty { return true }
        let others = zip(program.nodes[dependent].inputs, inputs(of: dependent)).filter { $0.0 != node }.map(\.1)
        switch program.nodes[dependent] {
        case .race:
            if others.contains(outcome) { return true }
        case .any:
            if !outcome.isFailure && others.contains(outcome) { return true }
        case .all, .zip:
            if outcome.isFailure && others.contains(outcome) { return true }
        case .timeout:
            if outcome == .deadlineExceeded { return true }
        default:
            break
        }
        // Cancelled in turn: by its own holders letting go (not merely because `node` was).
        return outcome == .cancelled && letGoByAll(dependent)
    }
}
