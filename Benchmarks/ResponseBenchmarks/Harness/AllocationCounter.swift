import CAllocationCounter

/// Heap allocations made while a closure runs, on every thread (see `CAllocationCounter.h`).
enum AllocationCounter {
    /// Whether this build counts allocations (Linux with glibc).
    static var isAvailable: Bool { rk_allocation_counting_available() }

    /// The allocations made while `body` runs, by any thread; `nil` where they are not counted.
    static func count(_ body: () -> Void) -> Int? {
        guard isAvailable else {
            body()
            return nil
        }
        let before = rk_allocation_count()
        body()
        return Int(rk_allocation_count() &- before)
    }
}
