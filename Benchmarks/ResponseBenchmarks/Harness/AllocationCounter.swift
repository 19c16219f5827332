import CAllocationCounter

/// Heap allocations made while a closure runs, on every thread (see `CAllocationCounter.h`).
enum AllocationCounter {
    /// Whether this build counts allocations (Linux with glibc).
    static var isAvailable: Bool { rk_allocation_counting_available() }

    /// The allocations made while `body` runs, by any thread; `nil` where they are not counted.
    static func count(_ body: () -> Void) -> Int? {
        let before = total
        body()
        return since(before)
    }

    /// Every allocation the process has made so far; `nil` where they are not counted. With
    /// ``since(_:)``, for work that finishes in another job than the one that started it.
    static var total: UInt64? {
        isAvailable ? rk_allocation_count() : nil
    }

    /// The allocations made since `before` was read from ``total``.
    static func since(_ before: UInt64?) -> Int? {
        guard let before, let now = total else { return nil }
        return Int(now &- before)
    }
}
