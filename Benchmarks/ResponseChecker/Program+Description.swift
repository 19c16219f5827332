extension Program {
    /// The program as lines of Swift-like text, for a failure report and `--replay`.
    var description: String {
        var lines = ["program \(seed): \(nodes.count) responses, \(steps.count) steps, \(threadCount) threads"]
        for index in nodes.indices {
            lines.append("  r\(index) = \(text(of: index))")
        }
        for phase in [Phase.before, .during, .after] {
            for thread in phase == .during ? Array(0..<threadCount) : [0] {
                let mine = steps.filter { $0.phase == phase && (phase != .during || $0.thread == thread) }
                guard !mine.isEmpty else { continue }
                let place = phase == .during ? "thread \(thread)" : "\(phase) (controller)"
                lines.append(
                    "  \(place): "
                        + mine.map { $0.action.isMachinery ? "\($0.action)" : "r\($0.node).\($0.action)" }.joined(
                            separator: "; "))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Node `index` as Swift-like text: `race([r0, r2], on: .main)`.
    func text(of index: Int) -> String {
        let text: String
        switch nodes[index] {
        case .source(let executor, let handler):
            text = "pending(on: .\(executor))" + (handler ? "  + resolver.onCancel" : "")
        case .body(let value, let executor): text = "Response(on: gate, executor: .\(executor)) { \(value) }"
        case .map(let input, let add): text = "r\(input).map { $0 &* 3 &+ \(add) }"
        case .flatMap(let input, let add):
            text = "r\(input).flatMap { even ? .succeeded($0 &+ \(add)) : .failed(code: \(add)) }"
        case .recover(let input, let value): text = "r\(input).recover { _ in \(value) }"
        case .flatMapError(let input, let add):
            text = "r\(input).flatMapError { even code ? .succeeded(200 &+ code) : .failed(code: \(10 + add)) }"
        case .mapError(let input, let add): text = "r\(input).mapError { _ in failed(code: \(20 + add)) }"
        case .always(let input): text = "r\(input).always { result in record }"
        case .all(let inputs, let executor): text = "all(\(names(inputs)), on: .\(executor)).folded"
        case .race(let inputs, let executor): text = "race(\(names(inputs)), on: .\(executor))"
        case .any(let inputs, let executor): text = "any(\(names(inputs)), on: .\(executor))"
        case .allSettled(let inputs, let executor): text = "allSettled(\(names(inputs)), on: .\(executor)).folded"
        case .zip(let first, let second): text = "r\(first).zip(r\(second)).folded"
        case .timeout(let input, let clock, let limit):
            text = "r\(input).timeout(after: .microseconds(\(limit)), scheduler: \(clock))"
        case .delay(let input, let clock, let interval):
            text = "r\(input).delay(by: .microseconds(\(interval)), scheduler: \(clock))"
        }
        return text
    }

    private func names(_ inputs: [Int]) -> String {
        "[" + inputs.map { "r\($0)" }.joined(separator: ", ") + "]"
    }
}
