import Dispatch
import ResponseKit

/// W7: interactor request throughput, end to end. The main thread issues requests to an
/// interactor whose work runs on a global queue and whose responses call back on `.main`; each
/// answer that arrives lets the main thread issue the next request, keeping `inFlight` requests
/// outstanding until `operations` have completed. Figures are per request; the table's "per
/// second" column is the throughput.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
@MainActor
enum W7InteractorThroughput {
    /// One workload per number of requests in flight: `W7/1`, `W7/64`, `W7/1024`.
    static func workload(inFlight: Int) -> Workload {
        Workload(
            id: "W7/\(inFlight)",
            title: "interactor requests, \(inFlight) in flight",
            unit: .nanosecondsPerRequest,
            operations: inFlight == 1 ? 2_000 : 20_000,
            smokeOperations: max(10, 2 * inFlight),
            target: .ratio(1.3),
            // Dispatch's own allocations (blocks, thread wake-ups) vary with timing: a margin.
            allocationBudget: inFlight == 1 ? 20 : 10,
            responseKit: Variant(name: "ResponseKit interactor", role: .responseKit) { requests in
                run(requests, inFlight: inFlight, in: "W7 ResponseKit") { request, loop in
                    DoublingInteractor().execute(request).mainActor.onCompletion { loop.receive($0) }
                }
            },
            floor: Variant(name: "global().async + main.async", role: .floor) { requests in
                run(requests, inFlight: inFlight, in: "W7 floor") { request, loop in
                    DispatchQueue.global().async {
                        let answer = DoublingInteractor.work(request)
                        DispatchQueue.main.async { loop.receive(answer) }
                    }
                }
            },
            alternatives: [
                Variant(name: "Task on the main actor, await async work", role: .alternative) { requests in
                    run(requests, inFlight: inFlight, in: "W7 Task") { request, loop in
                        Task { loop.receive(await DoublingInteractor.asyncWork(request)) }
                    }
                }
            ]
        )
    }

    /// Issues `requests` requests through `send`, `inFlight` at a time, services the main queue
    /// until every answer is back, and returns nanoseconds per request.
    private static func run(
        _ requests: Int,
        inFlight: Int,
        in variant: String,
        send: @escaping @MainActor (Int, ClosedLoop) -> Void
    ) -> Double {
        let loop = ClosedLoop(requests: requests, send: send)
        let nanoseconds = Stopwatch.nanosecondsPerOperation(requests) {
            loop.start(inFlight: inFlight)
            MainRunLoop.run(until: { loop.isFinished }, workload: variant)
        }
        precondition(loop.total == 2 * Tally.sum(ofFirst: requests), "\(variant): wrong total \(loop.total)")
        return nanoseconds
    }
}

/// The interactor of W7: doubles a number on a global queue. The work is trivial on purpose, so
/// that the figures are the cost of issuing, hopping threads and delivering.
struct DoublingInteractor {
    func execute(_ request: Int) -> Response<Int> {
        Response(on: .global()) { Self.work(request) }
    }

    static func work(_ request: Int) -> Int {
        request &* 2
    }

    /// The same work as a nonisolated async function, which runs on the global executor, off
    /// the main actor.
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
    /// The sum of the answers, to check that each request was answered once.
    private(set) var total = 0

    init(requests: Int, send: @escaping @MainActor (Int, ClosedLoop) -> Void) {
        self.requests = requests
        self.send = send
    }

    var isFinished: Bool { answered == requests }

    func start(inFlight: Int) {
        for _ in 0..<min(inFlight, requests) {
            issueNext()
        }
    }

    func receive(_ answer: Int) {
        answered += 1
        total &+= answer
        if issued < requests { issueNext() }
    }

    private func issueNext() {
        let request = issued
        issued += 1
        send(request, self)
    }
}
