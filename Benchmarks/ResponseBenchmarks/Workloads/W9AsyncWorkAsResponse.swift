import Dispatch
import ResponseKit
import Synchronization

/// W9: async work as a response. `Response(executor: .immediate) { await work() }`, observed with
/// `onCompletion`; per request, 64 in flight (each answer starts the next request).
///
/// The floor is what the bridge must at least do: a `Task` that awaits the same work and resolves
/// a hand-written future (``IntPromise``), observed the same way. The bridge adds, on top, the
/// response's cancellation reaching the task.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum W9AsyncWorkAsResponse {
    static let inFlight = 64

    static var workload: Workload {
        Workload(
            id: "W9",
            title: "async work as a response, \(inFlight) in flight",
            unit: .nanosecondsPerOperation,
            operations: 50_000,
            smokeOperations: 100,
            target: .ratio(1.15),
            // Measured 2026-11-27: 7 against the floor's 6 (the bridge's own: the extras that hold
            // the task's cancellation handler; the task holds the response itself, without a
            // resolver's handle); one more for the pool's timing-dependent allocations.
            allocationBudget: 8,
            responseKit: Variant(name: "Response(executor: .immediate) { await work() }", role: .responseKit) {
                run(operations: $0, start: startResponse)
            },
            floor: Variant(name: "Task { await work() } resolving an IntPromise", role: .floor) {
                run(operations: $0, start: startTask)
            }
        )
    }

    /// The async work: nothing but a result, so that the figure is the bridge's.
    @inline(never)
    static func work(_ index: Int) async -> Int {
        index
    }

    @inline(never)
    static func makeResponse(_ index: Int) -> Response<Int> {
        Response(executor: .immediate) { await work(index) }
    }

    @inline(never)
    static func makeTaskPromise(_ index: Int) -> IntPromise {
        let (promise, resolver) = IntResolver.pending()
        Task { resolver.resolve(await work(index)) }
        return promise
    }

    static func startResponse(_ driver: Driver) {
        guard let index = driver.nextRequest() else { return }
        makeResponse(index).onCompletion { value in
            if driver.answered(value) { startResponse(driver) }
        }
    }

    static func startTask(_ driver: Driver) {
        guard let index = driver.nextRequest() else { return }
        makeTaskPromise(index).observe { value in
            if driver.answered(value) { startTask(driver) }
        }
    }

    /// Starts `inFlight` requests; each answer starts the next until `operations` were answered.
    static func run(operations: Int, start: @escaping @Sendable (Driver) -> Void) -> Double {
        let driver = Driver(total: operations)
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for _ in 0..<min(inFlight, operations) { start(driver) }
            driver.finished.wait()
        }
        precondition(driver.sum == Tally.sum(ofFirst: operations), "W9: wrong total \(driver.sum)")
        return nanoseconds
    }

    /// Counts requests started and answered, from whichever thread answers.
    final class Driver: Sendable {
        let total: Int
        let finished = DispatchSemaphore(value: 0)
        private let started = Atomic<Int>(0)
        private let answeredCount = Atomic<Int>(0)
        private let valueSum = Atomic<Int>(0)

        init(total: Int) {
            self.total = total
        }

        /// The next request's index, or `nil` once every request was started.
        func nextRequest() -> Int? {
            let index = started.wrappingAdd(1, ordering: .relaxed).oldValue
            return index < total ? index : nil
        }

        /// Records an answer; `true` when the caller should start another request.
        func answered(_ value: Int) -> Bool {
            valueSum.wrappingAdd(value, ordering: .relaxed)
            if answeredCount.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == total {
                finished.signal()
                return false
            }
            return true
        }

        var sum: Int { valueSum.load(ordering: .acquiring) }
    }
}
