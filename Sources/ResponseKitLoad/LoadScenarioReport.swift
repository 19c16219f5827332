/// What a run of several ``LoadScenario``s measured: each scenario's report and the total's.
///
/// Each scenario's report counts its own requests, answers and latencies; its throughput is
/// its answers from the start of the measured part to its own last answer; its `mode` and
/// `length` are the whole run's. The total is the report a single-scenario run would give. ``LoadReportPage`` shows them side by side:
/// `LoadReportPage(title: "Cities", runs: report.scenarios + [("total", report.total)])`.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadScenarioReport: Sendable {
    /// All the requests, whatever their scenario.
    public let total: LoadReport
    /// Each scenario's report, in the order the scenarios were given.
    public let scenarios: [(name: String, report: LoadReport)]

    /// The report of the scenario named `name`, if there is one.
    ///
    /// - Parameter name: the scenario's name.
    public subscript(name: String) -> LoadReport? {
        scenarios.first { $0.name == name }?.report
    }

    /// Each scenario's table under its name, then the total's.
    public var table: String {
        (scenarios.map { "\($0.name)\n\($0.report.table)" } + ["total\n\(total.table)"]).joined(separator: "\n")
    }
}
