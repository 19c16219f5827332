import Foundation

/// Everything one run produced; printed as a table, or encoded as JSON with `--json` so that runs
/// can be compared over time.
struct RunReport: Codable {
    /// When the run started, in ISO 8601 (UTC).
    let date: String
    let machine: Machine
    let isSmoke: Bool
    let results: [WorkloadResult]

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
