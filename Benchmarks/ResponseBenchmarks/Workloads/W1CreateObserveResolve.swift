import ResponseKit

/// W1: create a pending response, observe it with one success callback, resolve it; the callback
/// runs inline (`.immediate`). The cost of the library's most common path.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum W1CreateObserveResolve {
    static var workload: Workload {
        Workload(
            id: "W1",
            title: "create → observe → resolve, inline",
            unit: .nanosecondsPerOperation,
            operations: 200_000,
            smokeOperations: 10,
            target: .ratio(1.4),
            allocationBudget: 2,
            responseKit: Variant(name: "ResponseKit", role: .responseKit) { responseKit(operations: $0) },
            floor: Variant(name: "final class + Mutex<closure?>", role: .floor) { floor(operations: $0) },
            alternatives: [
                Variant(name: "generic final class + Mutex<closure?>", role: .alternative) {
                    genericFloor(operations: $0)
                },
                Variant(name: "withCheckedContinuation", role: .alternative, maximumOperations: 50_000) {
                    checkedContinuation(operations: $0)
                },
            ]
        )
    }

    /// Nonisolated on purpose: registered from here, the callback has no isolation to hop to.
    static func responseKit(operations: Int) -> Double {
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                let (response, resolver) = makePending()
                response.onCompletion { tally.add($0) }
                resolver.succeed(index)
            }
        }
        tally.expect(count: operations, total: Tally.sum(ofFirst: operations), in: "W1 ResponseKit")
        return nanoseconds
    }

    static func floor(operations: Int) -> Double {
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                let (promise, resolver) = IntResolver.pending()
                promise.observe { tally.add($0) }
                resolver.resolve(index)
            }
        }
        tally.expect(count: operations, total: Tally.sum(ofFirst: operations), in: "W1 floor")
        return nanoseconds
    }

    /// A pending response, made out of the caller's sight as an interactor returns one (and as
    /// the floor's are): otherwise the optimiser may keep it on the stack, which no real use
    /// allows.
    @inline(never)
    static func makePending() -> (Response<Int>, Response<Int>.Resolver) {
        Response<Int>.pending(on: .immediate)
    }

    static func genericFloor(operations: Int) -> Double {
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                let promise = MutexPromise<Int>.pending()
                promise.observe { tally.add($0) }
                promise.resolve(index)
            }
        }
        tally.expect(count: operations, total: Tally.sum(ofFirst: operations), in: "W1 generic floor")
        return nanoseconds
    }

    /// Swift concurrency's equivalent: a continuation made, awaited and resumed. Awaiting suspends
    /// the task and resuming enqueues it again, so each operation includes a trip through the
    /// task's executor.
    static func checkedContinuation(operations: Int) -> Double {
        let (nanoseconds, total) = Elsewhere.inTask {
            var total = 0
            let nanoseconds = await Stopwatch.nanosecondsPerOperation(operations) {
                for index in 0..<operations {
                    total &+= await withCheckedContinuation { $0.resume(returning: index) }
                }
            }
            return (nanoseconds, total)
        }
        precondition(total == Tally.sum(ofFirst: operations), "W1 withCheckedContinuation: wrong total \(total)")
        return nanoseconds
    }
}
