import ResponseKit

/// W2: make a response that has already succeeded, then observe it; the callback runs inline,
/// at registration. The path of a cached answer, or of an observer that comes late.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum W2ResolvedThenObserve {
    static var workload: Workload {
        Workload(
            id: "W2",
            title: "already resolved → observe, inline",
            unit: .nanosecondsPerOperation,
            operations: 500_000,
            smokeOperations: 10,
            target: .ratio(1.5),
            allocationBudget: 1,
            responseKit: Variant(name: "ResponseKit", role: .responseKit) { responseKit(operations: $0) },
            // The floor reads a resolved value without the lock, as ResponseKit does: a lock there
            // is avoidable work (Benchmarks/README.md, "W2 and W4: what two harnesses measured
            // differently"). W1's `IntPromise`, which locks, stays beside it.
            floor: Variant(name: "final class, lock-free read when resolved", role: .floor) {
                lockFreeReadFloor(operations: $0)
            },
            alternatives: [
                Variant(name: "final class + Mutex<closure?>", role: .alternative) { mutexFloor(operations: $0) },
                Variant(name: "generic final class + Mutex<closure?>", role: .alternative) {
                    genericFloor(operations: $0)
                },
            ]
        )
    }

    static func responseKit(operations: Int) -> Double {
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                makeSucceeded(index).onCompletion { tally.add($0) }
            }
        }
        tally.expect(count: operations, total: Tally.sum(ofFirst: operations), in: "W2 ResponseKit")
        return nanoseconds
    }

    /// A succeeded response, made out of the caller's sight like the floor's (see W1).
    @inline(never)
    static func makeSucceeded(_ value: Int) -> Response<Int> {
        Response<Int>.succeeded(value, on: .immediate)
    }

    static func mutexFloor(operations: Int) -> Double {
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                IntPromise.resolved(index).observe { tally.add($0) }
            }
        }
        tally.expect(count: operations, total: Tally.sum(ofFirst: operations), in: "W2 Mutex floor")
        return nanoseconds
    }

    static func lockFreeReadFloor(operations: Int) -> Double {
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                LockFreeReadPromise.resolved(index).observe { tally.add($0) }
            }
        }
        tally.expect(count: operations, total: Tally.sum(ofFirst: operations), in: "W2 floor")
        return nanoseconds
    }

    static func genericFloor(operations: Int) -> Double {
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                MutexPromise<Int>.resolved(index).observe { tally.add($0) }
            }
        }
        tally.expect(count: operations, total: Tally.sum(ofFirst: operations), in: "W2 generic floor")
        return nanoseconds
    }
}
