import Dispatch
import Foundation
import ResponseKit
import ResponseKitTesting

/// One run's responses and the machinery around them: the serial queue, the manual executor
/// and clock, the resolvers not dropped yet, and the log every step writes to.
final class World: Sendable {
    let program: Program
    let log: RunLog
    let responses: [Response<Int>]
    /// The resolvers not dropped live until the run ends.
    private let slots: [ResolverSlot?]
    /// For each response, the ones it alone holds (`Program.heldOnlyThrough`).
    private let held: [[Response<Int>]]
    private let serial = DispatchQueue(label: "ResponseChecker.serial")
    /// Where bodies and real-time timers run: closed until the race starts, so that nothing
    /// finishes on its own while the program is built or its `before` steps run (the model
    /// counts the claims of every response built, and of every `before` callback, as made first).
    private let gate = DispatchQueue(label: "ResponseChecker.gate", attributes: [.concurrent, .initiallyInactive])
    private let manual = ManualExecutor()
    private let scheduler = ManualScheduler()

    init(program: Program, log: RunLog) {
        self.program = program
        self.log = log
        var responses: [Response<Int>] = []
        var slots: [ResolverSlot?] = []
        for (index, node) in program.nodes.enumerated() {
            let (response, slot) = Self.build(
                node, index: index, from: responses, gate: gate,
                executor: { [serial, manual] kind in
                    switch kind {
                    case .immediate: .immediate
                    case .serial: .queue(serial)
                    case .global: .queue(.global())
                    case .main: .main
                    case .custom: manual.executor
                    }
                },
                scheduler: { [scheduler, gate] clock -> any ResponseScheduler in
                    clock == .manual ? scheduler : DispatchScheduler(queue: gate)
                }, log: log)
            responses.append(response)
            slots.append(slot)
        }
        self.responses = responses
        self.slots = slots
        self.held = program.nodes.indices.map { node in program.heldOnlyThrough(node).map { responses[$0] } }
    }

    private static func build(
        _ node: Program.Node, index: Int, from responses: [Response<Int>], gate: DispatchQueue,
        executor: (Program.Executor) -> ResponseExecutor, scheduler: (Program.Clock) -> any ResponseScheduler,
        log: RunLog
    ) -> (Response<Int>, ResolverSlot?) {
        switch node {
        case .source(let kind, let cancelHandler):
            let (pending, resolver) = Response<Int>.pending(on: executor(kind))
            if cancelHandler {
                resolver.onCancel {
                    // A handler does some work (closes a socket, say): a callback that runs
                    // before it returns then shows, which an empty handler would hide.
                    let start = log.tick()
                    usleep(50)
                    log.recordHandler(node: index, start: start, end: log.tick())
                }
            }
            return (pending, ResolverSlot(resolver))
        case .body(let value, let kind):
            return (Response(on: gate, executor: executor(kind)) { value }, nil)
        case .map(let input, let add):
            return (responses[input].map { $0 &* 3 &+ add }, nil)
        case .flatMap(let input, let add):
            let response = responses[input].flatMap { value in
                value % 2 == 0
                    ? .succeeded(value &+ add, on: .immediate) : .failed(CheckerError(code: add), on: .immediate)
            }
            return (response, nil)
        case .recover(let input, let value):
            return (responses[input].recover { _ in value }, nil)
        case .flatMapError(let input, let add):
            let response = responses[input].flatMapError { error -> Response<Int> in
                if let error = error as? CheckerError, error.code % 2 == 0 {
                    return .succeeded(200 &+ error.code, on: .immediate)
                }
                return .failed(CheckerError(code: 10 &+ add), on: .immediate)
            }
            return (response, nil)
        case .mapError(let input, let add):
            return (responses[input].mapError { _ in CheckerError(code: 20 &+ add) }, nil)
        case .always(let input):
            return (responses[input].always { result in log.recordAlways(node: index, saw: Outcome(result)) }, nil)
        case .all(let inputs, let kind):
            let all = Response<[Int]>.all(inputs.map { responses[$0] }, on: executor(kind))
            return (all.map { values in values.reduce(0) { $0 &* 31 &+ $1 } }, nil)
        case .race(let inputs, let kind):
            return (Response<Int>.race(inputs.map { responses[$0] }, on: executor(kind)), nil)
        case .any(let inputs, let kind):
            return (Response<Int>.any(inputs.map { responses[$0] }, on: executor(kind)), nil)
        case .allSettled(let inputs, let kind):
            let settled = Response<[Result<Int, any Error>]>.allSettled(
                inputs.map { responses[$0] }, on: executor(kind))
            return (settled.map { results in Outcome.settled(results.map(Outcome.init)) }, nil)
        case .zip(let first, let second):
            let zipped: Response<(Int, Int)> = responses[first].zip(responses[second])
            return (zipped.map { pair in pair.0 &* 1000 &+ pair.1 }, nil)
        case .timeout(let input, let clock, let limit):
            return (responses[input].timeout(after: .microseconds(limit), scheduler: scheduler(clock)), nil)
        case .delay(let input, let clock, let interval):
            return (responses[input].delay(by: .microseconds(interval), scheduler: scheduler(clock)), nil)
        }
    }

    /// Lets bodies and real-time timers run: the race starts.
    func open() {
        gate.activate()
    }

    /// Runs step `index` on the current thread.
    func perform(step index: Int, tasks: DispatchGroup) {
        let step = program.steps[index]
        let response = responses[step.node]
        let (log, held) = (log, held[step.node])
        let record = { @Sendable (outcome: Outcome?, start: Int) in
            log.record(step: index, .init(outcome: outcome, start: start, end: log.tick()), isCallback: false)
        }
        // A callback first looks whether what its response alone held is done, then stamps its start.
        let callback = { @Sendable (outcome: Outcome) in
            let heldDone = held.map(\.isDone)
            let start = log.tick()
            log.record(
                step: index, .init(outcome: outcome, start: start, end: log.tick(), heldDone: heldDone),
                isCallback: true)
        }
        switch step.action {
        case .succeed(let value):
            if let resolver = slots[step.node]?.take() {
                let start = log.tick()
                log.recordEvent(step: index, won: resolver.succeed(value), start: start)
            }
        case .fail(let code):
            if let resolver = slots[step.node]?.take() {
                let start = log.tick()
                log.recordEvent(step: index, won: resolver.fail(CheckerError(code: code)), start: start)
            }
        case .cancel:
            let start = log.tick()
            log.recordEvent(step: index, won: response.cancel(), start: start)
        case .dropResolver:
            let start = log.tick()
            slots[step.node]?.drop()
            log.recordEvent(step: index, won: false, start: start)
        case .onCompletion:
            response.onCompletion { callback(.value($0)) }
        case .onFailure:
            response.onFailure { callback(Outcome(error: $0)) }
        case .onResult:
            response.onResult { callback(Outcome($0)) }
        case .mainActorOnResult:
            // Registered from the main queue (`mainActor` is for main-actor code), which the main
            // thread serves in `dispatchMain()`.
            DispatchQueue.main.sync {
                MainActor.assumeIsolated {
                    _ = response.mainActor.onResult { callback(Outcome($0)) }
                }
            }
        case .actorOnResult:
            response.onResult(isolatedTo: CallbackActor.shared) { _, result in callback(Outcome(result)) }
        case .read:
            let start = log.tick()
            do {
                record(.value(try response.wait(timeout: Runner.timeout)), start)
            } catch let error as ResponseError where error == .timedOut {
                record(nil, start)
            } catch {
                record(Outcome(error: error), start)
            }
        case .await:
            tasks.enter()
            Task.detached {
                let start = log.tick()
                do {
                    record(.value(try await response.get()), start)
                } catch {
                    record(Outcome(error: error), start)
                }
                tasks.leave()
            }
        case .advance(let microseconds):
            scheduler.advance(by: .microseconds(microseconds))
        case .drain:
            manual.runAll()
        }
    }

    /// Moves the manual clock far ahead and drains the manual executor until every response is
    /// done (a `delay` on the manual clock finishes only then), or the deadline passes.
    func settle(until deadline: DispatchTime) {
        while DispatchTime.now() < deadline {
            scheduler.advance(by: .seconds(3600))
            manual.runAll()
            if responses.allSatisfy(\.isDone) { return }
            usleep(20)
        }
    }

    /// Waits, until `deadline` at most, for every callback the outcomes call for to have run,
    /// draining the manual executor meanwhile: a read returns once the response is done, which is
    /// before its callbacks are delivered.
    func waitForCallbacks(outcomes: [Outcome?], until deadline: DispatchTime) {
        var expected = 0
        for step in program.steps {
            guard let outcome = outcomes[step.node] else { continue }
            switch step.action {
            case .onResult, .mainActorOnResult, .actorOnResult: expected += 1
            case .onCompletion: expected += outcome.isFailure ? 0 : 1
            case .onFailure: expected += outcome.isFailure ? 1 : 0
            default: break
            }
        }
        // A cancellation handler runs after its response is done (which ends a read), on the
        // thread that cancelled it: wait for those of the responses that ended cancelled too.
        // An `always` body runs once per `always` response, during its completion.
        let bodies = program.nodes.filter { if case .always = $0 { true } else { false } }.count
        let handlers = program.nodes.indices.filter { node in
            if case .source(_, cancelHandler: true) = program.nodes[node] {
                outcomes[node] == .cancelled
            } else {
                false
            }
        }.count
        while (log.callbackRunCount < expected || log.handlerRunCount < handlers || log.alwaysRunCount < bodies)
            && DispatchTime.now() < deadline
        {
            manual.runAll()
            usleep(20)
        }
        manual.runAll()
        serial.sync {}  // a serial callback enqueued by now has run: a second run would show
    }
}

/// The actor `actorOnResult` callbacks are isolated to.
actor CallbackActor {
    static let shared = CallbackActor()
}
