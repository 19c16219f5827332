/// Times work on `ContinuousClock` and turns durations into nanoseconds.
enum Stopwatch {
    /// Runs `body`, which performs `operations` operations, and returns nanoseconds per operation.
    ///
    /// Only `body` is timed: a workload sets up and checks its results outside it.
    static func nanosecondsPerOperation(_ operations: Int, _ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return nanoseconds(start.duration(to: clock.now)) / Double(max(operations, 1))
    }

    /// The async counterpart, for the Swift concurrency alternatives.
    static func nanosecondsPerOperation(_ operations: Int, _ body: () async -> Void) async -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        await body()
        return nanoseconds(start.duration(to: clock.now)) / Double(max(operations, 1))
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
