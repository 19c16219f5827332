import ResponseKit

/// Counts the diagnostics the library reports, by kind: double resolves and dropped resolvers are
/// the programs' own doing, so they are tallied for the summary rather than treated as failures.
final class DiagnosticCounts: Sendable {
    private let counts = LockedBox<[String: Int]>.make([:])

    func add(_ kind: String) {
        counts.withLock { $0[kind, default: 0] += 1 }
    }

    var summary: String {
        counts.withLock { $0.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
    }
}
