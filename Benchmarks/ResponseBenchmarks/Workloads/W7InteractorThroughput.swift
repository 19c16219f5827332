import Dispatch
import ResponseKit

/// W7: interactor request throughput, end to end. The main thread issues requests to an
/// interactor whose work runs on a global queue and whose responses call back on `.main`; each
/// answer that arrives lets the main thread issue the next request, keeping `inFlight` requests
/// outstanding until `operations` have completed. Figures are per request; the table's "per
/// second" column is the throughput.
///
/// Each of `W7/1`, `W7/64` and `W7/1024` has a twin that runs the same variants with the main
/// queue serviced by `dispatchMain()` instead of `RunLoop.main`, as in a server or a command-line
/// tool: `W7/64/dispatchMain` (see ``MainQueueServicing``).
///
/// The floor answers through a callback and returns nothing. Two alternatives return a future
/// written by hand (``IntPromiseInteractor``), so that the table separates the price of returning
/// a future at all from ResponseKit's own: one hops each answer to the main queue with its own
/// `main.async`, the other batches the answers as ResponseKit does (``MainQueueBatch``); a third
/// batches them through a lock-free ring instead of a locked list (``MainQueueRing``), to tell
/// what the lock costs. Another
/// runs ResponseKit's async bridge (`Response { await … }`), and the last Swift's own `Task`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
@MainActor
enum W7InteractorThroughput {
    /// One workload per number of requests in flight and way of servicing the main queue:
    /// `W7/1`, `W7/64`, `W7/1024`, and `W7/64/dispatchMain` and so on.
    static func workload(inFlight: Int, servicedBy servicing: MainQueueServicing = .runLoop) -> Workload {
        let id = servicing.id("W7/\(inFlight)")
        return Workload(
            id: id,
            title: servicing.title("interactor requests, \(inFlight) in flight"),
            unit: .nanosecondsPerRequest,
            // Under dispatchMain() each repetition is a new process (``DispatchMainChild``), and
            // 20,000 requests (about 25 ms) left Dispatch's threads settling: one build's ratio
            // spread 1.28–1.81× between runs. 200,000 requests read within a tenth run to run
            // (Benchmarks/README.md, "W7 under dispatchMain(): batching, not the lock").
            operations: inFlight == 1 ? 2_000 : servicing == .dispatchMain ? 200_000 : 20_000,
            smokeOperations: max(10, 2 * inFlight),
            warmsUp: servicing.warmsUpInProcess,
            // Issue 36: under dispatchMain(), with many in flight, within a quarter of the callback
            // floor (issue 25's 1.0× rested on a `Task` that never left the main thread).
            target: servicing == .dispatchMain && inFlight >= 64 ? .ratio(1.25) : .ratio(1.3),
            // Measured 5 with many in flight (the response, its job, the body's and the callback's
            // closures, the `DispatchQueue.global()` wrapper). With one in flight every answer is a
            // main-queue hop of its own, and Dispatch's allocations for thread wake-ups vary with
            // timing: 6 to 15 in CI's ten-request smoke run.
            allocationBudget: inFlight == 1 ? 20 : 7,
            responseKit: servicing.variant("ResponseKit interactor", role: .responseKit, of: id) { requests in
                work(requests, inFlight: inFlight, in: "W7 ResponseKit") { request, loop in
                    DoublingInteractor().execute(request).mainActor.onCompletion { loop.receive($0) }
                }
            },
            floor: servicing.variant("global().async + main.async", role: .floor, of: id) { requests in
                work(requests, inFlight: inFlight, in: "W7 floor") { request, loop in
                    DispatchQueue.global().async {
                        let answer = DoublingInteractor.work(request)
                        DispatchQueue.main.async { loop.receive(answer) }
                    }
                }
            },
            alternatives: [
                servicing.variant("IntPromise interactor, main.async per answer", role: .alternative, of: id) {
                    requests in
                    work(requests, inFlight: inFlight, in: "W7 IntPromise") { request, loop in
                        IntPromiseInteractor().execute(request).observe { answer in
                            DispatchQueue.main.async { loop.receive(answer) }
                        }
                    }
                },
                servicing.variant("IntPromise interactor, answers batched", role: .alternative, of: id) { requests in
                    work(requests, inFlight: inFlight, in: "W7 IntPromise batched") { request, loop in
                        IntPromiseInteractor().execute(request).observe { answer in
                            MainQueueBatch.shared.deliver(
                                MainQueueBatch.Answer(receive: { loop.receive($0) }, value: answer))
                        }
                    }
                },
                servicing.variant("IntPromise interactor, answers in a lock-free ring", role: .alternative, of: id) {
                    requests in
                    work(requests, inFlight: inFlight, in: "W7 IntPromise ring") { request, loop in
                        IntPromiseInteractor().execute(request).observe { answer in
                            MainQueueRing.shared.deliver(
                                MainQueueBatch.Answer(receive: { loop.receive($0) }, value: answer))
                        }
                    }
                },
                servicing.variant("ResponseKit, async body", role: .alternative, of: id) { requests in
                    work(requests, inFlight: inFlight, in: "W7 ResponseKit async") { request, loop in
                        Response { @Sendable () async -> Int in await DoublingInteractor.asyncWork(request) }
                            .mainActor.onCompletion { loop.receive($0) }
                    }
                },
                servicing.variant("Task on the main actor, await async work", role: .alternative, of: id) { requests in
                    work(requests, inFlight: inFlight, in: "W7 Task") { request, loop in
                        Task { loop.receive(await DoublingInteractor.asyncWork(request)) }
                    }
                },
            ]
        )
    }

    /// The work of one variant: issues `requests` requests through `send`, `inFlight` at a time;
    /// finished when every answer is back.
    private static func work(
        _ requests: Int,
        inFlight: Int,
        in variant: String,
        send: @escaping @MainActor (Int, ClosedLoop) -> Void
    ) -> MainQueueWork {
        let loop = ClosedLoop(requests: requests, send: send)
        return MainQueueWork(name: variant) { finished in
            loop.start(inFlight: inFlight, whenFinished: finished)
        } check: {
            precondition(loop.total == 2 * Tally.sum(ofFirst: requests), "\(variant): wrong total \(loop.total)")
        }
    }
}

/// The interactor of W7: doubles a number on a global queue. The work is trivial on purpose, so
/// that the figures are the cost of issuing, hopping threads and delivering.
struct DoublingInteractor {
    func execute(_ request: Int) -> Response<Int> {
        Response(on: .global()) { Self.work(request) }
    }

    /// Never inlined, so that ``asyncWork(_:)`` really runs on the global executor: inlined, the
    /// multiplication needs no executor, and the optimiser drops the hop to the global executor
    /// and back. The main-actor `Task` then never left the main thread (one CPU busy, 30 futex
    /// calls per 600,000 requests, no `swift_task_enqueueGlobal` in the profile), which made it
    /// look twice as fast as the floor under `dispatchMain()` (Benchmarks/README.md, "The Task
    /// that never left the main thread"). Every variant makes this same call.
    @inline(never)
    static func work(_ request: Int) -> Int {
        request &* 2
    }

    /// The same work as a nonisolated async function, which runs on the global executor, off
    /// the main actor (see ``work(_:)`` for why that needs the call not to be inlined).
    static func asyncWork(_ request: Int) async -> Int {
        work(request)
    }
}

/// The main thread's side of W7: issues request numbers 0, 1, 2, … and issues the next one each
/// time an answer arrives, until all have been answered.
@MainActor
final class ClosedLoop {
    private let requests: Int
    private let send: @MainActor (Int, ClosedLoop) -> Void
    private var issued = 0
    private var answered = 0
    private var whenFinished: @MainActor () -> Void = {}
    /// The sum of the answers, to check that each request was answered once.
    private(set) var total = 0

    init(requests: Int, send: @escaping @MainActor (Int, ClosedLoop) -> Void) {
        self.requests = requests
        self.send = send
    }

    /// Issues the first `inFlight` requests; `whenFinished` runs when the last answer arrives.
    func start(inFlight: Int, whenFinished: @escaping @MainActor () -> Void) {
        self.whenFinished = whenFinished
        for _ in 0..<min(inFlight, requests) {
            issueNext()
        }
    }

    func receive(_ answer: Int) {
        answered += 1
        total &+= answer
        if issued < requests {
            issueNext()
        } else if answered == requests {
            whenFinished()
        }
    }

    private func issueNext() {
        let request = issued
        issued += 1
        send(request, self)
    }
}
