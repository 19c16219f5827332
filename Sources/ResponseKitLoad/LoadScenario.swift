import ResponseKit

/// One kind of request in a mixed load, with its share of the requests: `80 % list, 20 % add`,
/// each with its own report.
///
/// <!-- example: fragment -->
/// ```swift
/// nonisolated struct Cities: Sendable {   // called from any thread
///     func list() -> Response<[String]> { Response(on: .global()) { ["Lyon"] } }
///     func add(_ name: String) -> Response<Int> { Response(on: .global()) { name.count } }
/// }
/// let cities = Cities()
///
/// let report = try LoadDriver(.openLoop(perSecond: 500), for: .duration(.seconds(10)))
///     .run(scenarios: [
///         LoadScenario(name: "list", weight: 8) { _ in cities.list() },
///         LoadScenario(name: "add", weight: 2) { number in cities.add("City \(number)") },
///     ])
///     .value
/// print(report.table)   // each scenario's table, then the total's
/// ```
///
/// Which scenario makes request *i* is decided by its number alone, by a smooth weighted
/// round-robin (nginx's): weights 8 and 2 give `list list add list list list list add list list`
/// over and over, so every ten requests hold exactly eight of the first and two of the second,
/// evenly spread, and a test knows which scenario made each request.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadScenario: Sendable {
    /// The name its report goes by.
    public let name: String
    /// Its share of the requests: its weight over the sum of the weights.
    public let weight: Int
    /// Makes one of its requests.
    @usableFromInline
    let makeRequest: LoadRun.MakeRequest

    /// A scenario named `name` that makes `weight` requests in every sum-of-the-weights.
    ///
    /// - Parameters:
    ///   - name: the name its report goes by.
    ///   - weight: its share of the requests; 1 by default.
    ///   - request: makes one request; it gets the request's number in the whole run (warm-up
    ///     included), not in the scenario.
    @inlinable
    public init<Value>(name: String, weight: Int = 1, _ request: @escaping @Sendable (Int) -> Response<Value>) {
        // Inlined, as `LoadDriver.run` is, so that a request is specialised for `Value` in the
        // caller's module.
        self.name = name
        self.weight = weight
        makeRequest = LoadRun.makeRequest(with: request)
    }

    /// The smooth weighted round-robin over one cycle of `weights.reduce(0, +)` requests: each
    /// step every scenario gains its weight, the one with the most (the first, on a tie) is
    /// chosen and gives back the total.
    static func order(weights: [Int]) -> [Int] {
        let total = weights.reduce(0, +)
        var current = Array(repeating: 0, count: weights.count)
        var order: [Int] = []
        order.reserveCapacity(total)
        for _ in 0..<total {
            for index in weights.indices { current[index] += weights[index] }
            var chosen = 0
            for index in current.indices where current[index] > current[chosen] { chosen = index }
            current[chosen] -= total
            order.append(chosen)
        }
        return order
    }

    /// How many of the requests numbered `numbers` each scenario makes.
    static func counts(order: [Int], scenarios: Int, in numbers: Range<Int>) -> [Int] {
        var counts = Array(repeating: 0, count: scenarios)
        guard scenarios > 0, !numbers.isEmpty else { return counts }
        let cycles = numbers.count / order.count
        for scenario in order { counts[scenario] += cycles }
        for number in numbers.lowerBound..<(numbers.lowerBound + numbers.count % order.count) {
            counts[order[number % order.count]] += 1
        }
        return counts
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadDriver {
    /// Runs a mix of scenarios under load, each request made by one of them as their weights
    /// say, and reports each scenario and the total.
    ///
    /// The mode and length are the whole run's: an open loop at 500 a second with weights 8 and 2
    /// makes 400 requests a second of the first and 100 of the second.
    ///
    /// - Parameters:
    ///   - executor: where the report's callbacks run; `.main` by default.
    ///   - scenarios: the scenarios, each with a name and a weight.
    /// - Returns: a response that succeeds with each scenario's report and the total, or fails
    ///   with ``InvalidConfiguration`` (as ``run(on:_:)-(_,(Int)->Response<Value>)`` does, or
    ///   when there is no scenario, a weight below 1, or two scenarios of the same name).
    @discardableResult
    public func run(on executor: ResponseExecutor = .main, scenarios: [LoadScenario]) -> Response<LoadScenarioReport> {
        if let problem = configurationProblem ?? Self.problem(with: scenarios) { return .failed(problem, on: executor) }
        let (report, resolver) = Response<LoadScenarioReport>.pending(on: executor)
        let run = LoadRun(driver: self, weights: scenarios.map(\.weight)) { index, token, run in
            scenarios[token.scenario].makeRequest(index, token, run)
        } finish: { total, reports in
            let named = zip(scenarios, reports).map { (name: $0.name, report: $1) }
            resolver.resolveIfPending(with: .success(LoadScenarioReport(total: total, scenarios: named)))
        }
        resolver.onCancel { run.stop() }
        run.start()
        return report
    }

    private static func problem(with scenarios: [LoadScenario]) -> InvalidConfiguration? {
        if scenarios.isEmpty { return InvalidConfiguration(reason: "run(scenarios:) needs at least one scenario") }
        if let scenario = scenarios.first(where: { $0.weight < 1 }) {
            return InvalidConfiguration(reason: "scenario \"\(scenario.name)\" has weight \(scenario.weight), below 1")
        }
        if Set(scenarios.map(\.name)).count < scenarios.count {
            return InvalidConfiguration(reason: "scenarios \(scenarios.map(\.name)) need different names")
        }
        return nil
    }
}
