import Dispatch
import ResponseKit

/// W6: main-queue delivery. A background thread resolves responses whose callbacks run on
/// `.main`, while the main thread services the main queue; figures are per delivered callback.
///
/// The clock includes making each response and registering its callback, on the main actor as a
/// presenter registers them, as well as the delivery: everything ResponseKit adds to the floor's
/// one `DispatchQueue.main.async` per value.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
@MainActor
enum W6MainQueueDelivery {
    static var workload: Workload {
        Workload(
            id: "W6",
            title: "resolve on a background thread, deliver on .main",
            unit: .nanosecondsPerCallback,
            operations: 50_000,
            smokeOperations: 10,
            target: .ratio(1.0),
            allocationBudget: 4,
            responseKit: Variant(name: "ResponseKit, .main", role: .responseKit) { responseKit(callbacks: $0) },
            floor: Variant(name: "DispatchQueue.main.async", role: .floor) { floor(callbacks: $0) },
            alternatives: [
                Variant(name: "Task { @MainActor in }", role: .alternative) { mainActorTask(callbacks: $0) }
            ]
        )
    }

    static func responseKit(callbacks: Int) -> Double {
        let received = Received()
        return measure(callbacks, received, in: "W6 ResponseKit") {
            var resolvers: [Response<Int>.Resolver] = []
            resolvers.reserveCapacity(callbacks)
            for _ in 0..<callbacks {
                let (response, resolver) = makePending()
                response.mainActor.onCompletion { received.add($0) }
                resolvers.append(resolver)
            }
            DispatchQueue.global().async { [resolvers] in
                for (index, resolver) in resolvers.enumerated() {
                    resolver.succeed(index)
                }
            }
        }
    }

    /// A pending `.main` response, made out of the caller's sight as an interactor returns one.
    @inline(never)
    static func makePending() -> (Response<Int>, Response<Int>.Resolver) {
        Response<Int>.pending(on: .main)
    }

    static func floor(callbacks: Int) -> Double {
        let received = Received()
        return measure(callbacks, received, in: "W6 floor") {
            DispatchQueue.global().async {
                for index in 0..<callbacks {
                    DispatchQueue.main.async { received.add(index) }
                }
            }
        }
    }

    static func mainActorTask(callbacks: Int) -> Double {
        let received = Received()
        return measure(callbacks, received, in: "W6 Task") {
            DispatchQueue.global().async {
                for index in 0..<callbacks {
                    Task { @MainActor in received.add(index) }
                }
            }
        }
    }

    /// Starts the clock, lets `start` set the background thread going, services the main queue
    /// until every callback has arrived, and returns nanoseconds per callback.
    private static func measure(_ callbacks: Int, _ received: Received, in variant: String, start: () -> Void) -> Double
    {
        let nanoseconds = Stopwatch.nanosecondsPerOperation(callbacks) {
            start()
            MainRunLoop.run(until: { received.count == callbacks }, workload: variant)
        }
        precondition(received.total == Tally.sum(ofFirst: callbacks), "\(variant): wrong total \(received.total)")
        return nanoseconds
    }

    /// What the main thread received: plain main-actor state, as in a presenter.
    @MainActor
    private final class Received {
        private(set) var count = 0
        private(set) var total = 0

        func add(_ value: Int) {
            count += 1
            total &+= value
        }
    }
}
