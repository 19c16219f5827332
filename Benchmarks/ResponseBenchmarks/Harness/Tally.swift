/// A running sum that callbacks add to, so that the optimiser cannot drop the work and the workload
/// can check afterwards that every callback ran once with the right value.
///
/// Safety of `@unchecked Sendable`: a tally belongs to one thread. Workloads that use it deliver
/// callbacks inline (`.immediate`, or the floor's inline call) on the thread that runs the
/// workload, and read the tally on that thread after the run; so every access happens on one
/// thread. Workloads whose callbacks cross threads count with `Atomic` or on the main actor
/// instead. `Sendable` is needed only because the floors take `@Sendable` closures, as a
/// `Mutex`-guarded closure must be.
final class Tally: @unchecked Sendable {
    private(set) var count = 0
    private(set) var total = 0

    func add(_ value: Int) {
        count += 1
        total &+= value
    }

    /// Traps unless exactly `count` values summing to `total` were added: a broken workload must
    /// fail the smoke run, not report a fast time.
    func expect(count expectedCount: Int, total expectedTotal: Int, in workload: String) {
        precondition(
            count == expectedCount && total == expectedTotal,
            "\(workload): expected \(expectedCount) callbacks summing to \(expectedTotal), got \(count) summing to \(total)"
        )
    }

    /// 0 + 1 + … + (n − 1), plus `offset` for each term.
    static func sum(ofFirst n: Int, offset: Int = 0) -> Int {
        n * (n - 1) / 2 + n * offset
    }
}
