import Dispatch
import ResponseKit
import Synchronization

/// W4: a cross-thread blocking round trip. A global queue resolves the response while the calling
/// thread blocks on `value`: the blocking-future style that tests use.
///
/// `W4` blocks a thread that is not the main thread, so ResponseKit waits on a semaphore, as the
/// floor does. `W4m` blocks the main thread, where ResponseKit runs `RunLoop.main` while it
/// waits (so main-queue work still finishes); its floor still blocks on a semaphore, which would
/// deadlock if the work needed the main queue. `W4m` shows the price of that safety and has no
/// target of its own.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum W4BlockingRoundTrip {
    static var workload: Workload {
        Workload(
            id: "W4",
            title: "blocking round trip, global queue resolves",
            unit: .nanosecondsPerOperation,
            operations: 5_000,
            smokeOperations: 10,
            target: .ratio(1.2),
            // 5: the response, its resolver's handle, and Dispatch's block, closure and
            // continuation; the waiter is recycled (BlockingWaiterPool), so a waiter made per
            // read (3 more) goes over. One more for Dispatch's timing-dependent allocations.
            allocationBudget: 6,
            responseKit: Variant(name: "ResponseKit, value", role: .responseKit) { operations in
                Elsewhere.onThread { responseKit(operations: operations) }
            },
            floor: Variant(name: "global().async + DispatchSemaphore", role: .floor) { operations in
                Elsewhere.onThread { floor(operations: operations) }
            },
            alternatives: [
                Variant(name: "await Task.detached { }.value", role: .alternative) { taskValue(operations: $0) }
            ]
        )
    }

    static var mainThreadWorkload: Workload {
        Workload(
            id: "W4m",
            title: "blocking round trip from the main thread",
            unit: .nanosecondsPerOperation,
            operations: 5_000,
            smokeOperations: 10,
            target: nil,
            allocationBudget: 22,
            responseKit: Variant(name: "ResponseKit, value", role: .responseKit) { responseKit(operations: $0) },
            floor: Variant(name: "global().async + DispatchSemaphore", role: .floor) { floor(operations: $0) }
        )
    }

    static func responseKit(operations: Int) -> Double {
        let queue = DispatchQueue.global()
        var total = 0
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                let (response, resolver) = Response<Int>.pending(on: .immediate)
                queue.async { resolver.succeed(index) }
                do {
                    total &+= try response.value
                } catch {
                    preconditionFailure("W4 ResponseKit: the response failed: \(error)")
                }
            }
        }
        precondition(total == Tally.sum(ofFirst: operations), "W4 ResponseKit: wrong total \(total)")
        return nanoseconds
    }

    /// What a hand-written blocking call does: a slot for the value per call, and the calling
    /// thread's one semaphore, reused from call to call (ResponseKit recycles its waiters too).
    static func floor(operations: Int) -> Double {
        let queue = DispatchQueue.global()
        var total = 0
        let semaphore = DispatchSemaphore(value: 0)
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                let slot = Slot()
                queue.async {
                    slot.value.store(index, ordering: .relaxed)
                    semaphore.signal()
                }
                semaphore.wait()
                // The semaphore orders the store before this load; the atomic only satisfies Sendable.
                total &+= slot.value.load(ordering: .relaxed)
            }
        }
        precondition(total == Tally.sum(ofFirst: operations), "W4 floor: wrong total \(total)")
        return nanoseconds
    }

    /// Swift concurrency's round trip: a task awaits a detached task's value.
    static func taskValue(operations: Int) -> Double {
        let (nanoseconds, total) = Elsewhere.inTask {
            var total = 0
            let nanoseconds = await Stopwatch.nanosecondsPerOperation(operations) {
                for index in 0..<operations {
                    total &+= await Task.detached { index }.value
                }
            }
            return (nanoseconds, total)
        }
        precondition(total == Tally.sum(ofFirst: operations), "W4 Task.detached: wrong total \(total)")
        return nanoseconds
    }

    /// The floor's slot for the value, one per call.
    private final class Slot: Sendable {
        let value = Atomic<Int>(0)
    }
}
