/// Times work on `ContinuousClock` and turns durations into nanoseconds.
enum Stopwatch {
    /// Runs `body`, which performs `operations` operations, and returns nanoseconds per operation.
    ///
    /// Only `body` is timed: a workload sets up and checks its results outside it.
    static func nanosecondsPerOperation(_ operations: Int, _ body: () throws -> Void) rethrows -> Double {
        let lap = Lap()
        try body()
        return lap.nanosecondsPerOperation(operations)
    }

    /// A clock started now and read later, for work that finishes in another job than the one that
    /// started it (the `dispatchMain` workloads).
    struct Lap {
        private let clock = ContinuousClock()
        private let start: ContinuousClock.Instant

        init() {
            start = clock.now
        }

        /// Nanoseconds since the lap started, per operation.
        func nanosecondsPerOperation(_ operations: Int) -> Double {
            nanoseconds(start.duration(to: clock.now)) / Double(max(operations, 1))
        }
    }

    /// The async counterpart, for the Swift concurrency alternatives.
    static func nanosecondsPerOperation(_ operations: Int, _ body: () async -> Void) async -> Double {
        let lap = Lap()
        await body()
        return lap.nanosecondsPerOperation(operations)
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
