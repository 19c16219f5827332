extension Program {
    /// The program as lines of Swift-like text, for a failure report and `--replay`.
    var description: String {
        var lines = ["program \(seed): \(nodes.count) responses, \(steps.count) steps, \(threadCount) threads"]
        for (index, node) in nodes.enumerated() {
            let text: String
            switch node {
            case .source(let executor, let handler):
                text = "pending(on: .\(executor))" + (handler ? "  + resolver.onCancel" : "")
            case .map(let input, let add): text = "r\(input).map { $0 &* 3 &+ \(add) }"
            case .flatMap(let input, let add):
                text = "r\(input).flatMap { even ? .succeeded($0 &+ \(add)) : .failed(code: \(add)) }"
            case .recover(let input, let value): text = "r\(input).recover { _ in \(value) }"
            case .all(let inputs, let executor): text = "all(\(names(inputs)), on: .\(executor)).folded"
            case .race(let inputs, let executor): text = "race(\(names(inputs)), on: .\(executor))"
            case .zip(let first, let second): text = "r\(first).zip(r\(second)).folded"
            }
            lines.append("  r\(index) = \(text)")
        }
        for phase in [Phase.before, .during, .after] {
            for thread in phase == .during ? Array(0..<threadCount) : [0] {
                let mine = steps.filter { $0.phase == phase && (phase != .during || $0.thread == thread) }
                guard !mine.isEmpty else { continue }
                let place = phase == .during ? "thread \(thread)" : "\(phase) (main)"
                lines.append("  \(place): " + mine.map { "r\($0.node).\($0.action)" }.joined(separator: "; "))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func names(_ inputs: [Int]) -> String {
        "[" + inputs.map { "r\($0)" }.joined(separator: ", ") + "]"
    }
}
