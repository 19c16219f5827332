import Dispatch
import ResponseKit

/// W8: an async caller awaits a response that a global queue resolves: `try await
/// response.get()`, per await. What a Swift 6 code base pays to use an interactor's response
/// from async code.
///
/// The floor is the hand-written equivalent with the same guarantee: an ``IntPromise`` resolved by
/// a global queue whose one callback resumes a `withUnsafeContinuation`, inside
/// `withTaskCancellationHandler`, since `get()` must stop waiting when its task is cancelled
/// (issue 36: a floor without that guarantee does less than the work asks). The alternatives are
/// that floor without cancellation, which shows what cancellation itself costs, and Swift's own
/// round trip, `await Task.detached { }.value`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum W8AwaitResponse {
    static var workload: Workload {
        Workload(
            id: "W8",
            title: "await a response a global queue resolves",
            unit: .nanosecondsPerOperation,
            operations: 20_000,
            smokeOperations: 10,
            // Issue 36: within a tenth of a hand-written await that can be cancelled.
            target: .ratio(1.1),
            // Measured 4 (the floor 5): the response, its resolver's handle, and Dispatch's closure
            // and block; the awaiting task waits as an entry of the response's own list. One more
            // for Dispatch's timing-dependent allocations.
            allocationBudget: 5,
            responseKit: Variant(name: "ResponseKit, try await get()", role: .responseKit) {
                responseKit(operations: $0)
            },
            floor: Variant(name: "IntPromise + withUnsafeContinuation, cancellable", role: .floor) {
                cancellableFloor(operations: $0)
            },
            alternatives: [
                Variant(name: "the floor without withTaskCancellationHandler", role: .alternative) {
                    uncancellableFloor(operations: $0)
                },
                Variant(name: "await Task.detached { }.value", role: .alternative) {
                    W4BlockingRoundTrip.taskValue(operations: $0)
                },
            ]
        )
    }

    @inline(never)
    static func makeResponse() -> (Response<Int>, Resolver<Int>) {
        Response<Int>.pending(on: .immediate)
    }

    static func responseKit(operations: Int) -> Double {
        let (nanoseconds, total) = Elsewhere.inTask {
            let queue = DispatchQueue.global()
            var total = 0
            let nanoseconds = await Stopwatch.nanosecondsPerOperation(operations) {
                for index in 0..<operations {
                    let (response, resolver) = makeResponse()
                    queue.async { resolver.succeed(index) }
                    do {
                        total &+= try await response.get()
                    } catch {
                        preconditionFailure("W8 ResponseKit: the response failed: \(error)")
                    }
                }
            }
            return (nanoseconds, total)
        }
        precondition(total == Tally.sum(ofFirst: operations), "W8 ResponseKit: wrong total \(total)")
        return nanoseconds
    }

    /// The floor without cancellation: what a hand-written await costs when it cannot be
    /// cancelled (W8's floor until issue 36).
    static func uncancellableFloor(operations: Int) -> Double {
        let (nanoseconds, total) = Elsewhere.inTask {
            let queue = DispatchQueue.global()
            var total = 0
            let nanoseconds = await Stopwatch.nanosecondsPerOperation(operations) {
                for index in 0..<operations {
                    let (promise, resolver) = IntResolver.pending()
                    queue.async { resolver.resolve(index) }
                    total &+= await withUnsafeContinuation { continuation in
                        promise.observe { continuation.resume(returning: $0) }
                    }
                }
            }
            return (nanoseconds, total)
        }
        precondition(total == Tally.sum(ofFirst: operations), "W8 uncancellable floor: wrong total \(total)")
        return nanoseconds
    }

    /// The floor: a hand-written await with what `get()` also does, a cancelled task stops
    /// waiting, so it needs Swift's cancellation handler around its continuation, as `get()` has.
    /// (Its handler has nothing to undo: `IntPromise` cannot drop a callback, so a cancelled
    /// await here would still be resumed by the value; no variant is cancelled in W8.)
    static func cancellableFloor(operations: Int) -> Double {
        let (nanoseconds, total) = Elsewhere.inTask {
            let queue = DispatchQueue.global()
            var total = 0
            let nanoseconds = await Stopwatch.nanosecondsPerOperation(operations) {
                for index in 0..<operations {
                    let (promise, resolver) = IntResolver.pending()
                    queue.async { resolver.resolve(index) }
                    total &+= await withTaskCancellationHandler {
                        await withUnsafeContinuation { continuation in
                            promise.observe { continuation.resume(returning: $0) }
                        }
                    } onCancel: {
                    }
                }
            }
            return (nanoseconds, total)
        }
        precondition(total == Tally.sum(ofFirst: operations), "W8 cancellable floor: wrong total \(total)")
        return nanoseconds
    }
}
