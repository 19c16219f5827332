import Dispatch
import ResponseKit

/// W6: main-queue delivery. A background thread resolves responses whose callbacks run on
/// `.main`, while the main queue is serviced; figures are per delivered callback.
///
/// The clock includes making each response and registering its callback, on the main actor as a
/// presenter registers them, as well as the delivery: everything ResponseKit adds to the floor's
/// one `DispatchQueue.main.async` per value.
///
/// Two workloads run the same variants: `W6`, whose main thread services the main queue with
/// `RunLoop.main` as an app's does, and `W6/dispatchMain`, where `dispatchMain()` does, as in a
/// server or a command-line tool (see ``MainQueueServicing``).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
@MainActor
enum W6MainQueueDelivery {
    static var workload: Workload { workload(servicedBy: .runLoop) }
    static var dispatchMainWorkload: Workload { workload(servicedBy: .dispatchMain) }

    /// W6 with the main queue serviced by `servicing`: `W6` or `W6/dispatchMain`.
    static func workload(servicedBy servicing: MainQueueServicing) -> Workload {
        let id = servicing.id("W6")
        return Workload(
            id: id,
            title: servicing.title("resolve on a background thread, deliver on .main"),
            unit: .nanosecondsPerCallback,
            operations: 50_000,
            smokeOperations: 10,
            warmsUp: servicing.warmsUpInProcess,
            target: .ratio(1.0),
            allocationBudget: 3,
            responseKit: servicing.variant("ResponseKit, .main", role: .responseKit, of: id, work: responseKit),
            floor: servicing.variant("DispatchQueue.main.async", role: .floor, of: id, work: floor),
            alternatives: [
                servicing.variant("Task { @MainActor in }", role: .alternative, of: id, work: mainActorTask)
            ]
        )
    }

    static func responseKit(callbacks: Int) -> MainQueueWork {
        work(callbacks, in: "W6 ResponseKit") { received in
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

    static func floor(callbacks: Int) -> MainQueueWork {
        work(callbacks, in: "W6 floor") { received in
            DispatchQueue.global().async {
                for index in 0..<callbacks {
                    DispatchQueue.main.async { received.add(index) }
                }
            }
        }
    }

    static func mainActorTask(callbacks: Int) -> MainQueueWork {
        work(callbacks, in: "W6 Task") { received in
            DispatchQueue.global().async {
                for index in 0..<callbacks {
                    Task { @MainActor in received.add(index) }
                }
            }
        }
    }

    /// The work of one variant: `start` sets the background thread going, whose callbacks add to
    /// `received` on the main queue; the work is finished when every callback has arrived.
    private static func work(
        _ callbacks: Int,
        in variant: String,
        start: @escaping @MainActor (Received) -> Void
    ) -> MainQueueWork {
        let received = Received(expected: callbacks)
        return MainQueueWork(name: variant) { finished in
            received.whenAllArrived = finished
            start(received)
        } check: {
            precondition(received.total == Tally.sum(ofFirst: callbacks), "\(variant): wrong total \(received.total)")
        }
    }

    /// What the main thread received: plain main-actor state, as in a presenter.
    @MainActor
    private final class Received {
        private let expected: Int
        private(set) var count = 0
        private(set) var total = 0
        /// Called by the callback that brings the count to the expected one.
        var whenAllArrived: @MainActor () -> Void = {}

        init(expected: Int) {
            self.expected = expected
        }

        func add(_ value: Int) {
            count += 1
            total &+= value
            if count == expected { whenAllArrived() }
        }
    }
}
