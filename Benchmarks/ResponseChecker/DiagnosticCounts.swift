import Foundation

/// Counts the diagnostics the library reports, by kind: double resolves and dropped resolvers are
/// the programs' own doing, so they are tallied for the summary rather than treated as failures.
final class DiagnosticCounts: @unchecked Sendable {
    // Safety: `counts` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func add(_ kind: String) {
        lock.withLock { counts[kind, default: 0] += 1 }
    }

    var summary: String {
        lock.withLock { counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
    }
}
