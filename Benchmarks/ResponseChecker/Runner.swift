import Dispatch
import Foundation
import ResponseKit

/// What one run of a program left for the model to check.
struct RunResult {
    let log: RunLog
    /// Each response's outcome, read once every thread and task has returned; `nil` when a read
    /// with the generous timeout gave up (a hang).
    let finalOutcomes: [Outcome?]
    /// Whether a racing thread was still running at the deadline (a read there hung).
    let threadsHung: Bool
}

/// Builds a program's responses and runs its steps: before, on the main thread; during, on
/// racing threads released together; after, on the main thread again. Then it reads every
/// response and waits (bounded) for the callbacks its outcome calls for.
enum Runner {
    /// Generous: only a broken library waits this long, and then the wait is reported as a hang.
    static let timeout = Duration.seconds(10)

    static func run(_ program: Program) -> RunResult {
        let log = RunLog(seed: program.seed)
        let serial = DispatchQueue(label: "ResponseChecker.serial")
        func executor(_ kind: Program.Executor) -> ResponseExecutor {
            switch kind {
            case .immediate: .immediate
            case .serial: .queue(serial)
            case .global: .queue(.global())
            }
        }
        var responses: [Response<Int>] = []
        var slots: [ResolverSlot?] = []  // resolvers not dropped live until the run ends
        for (index, node) in program.nodes.enumerated() {
            var slot: ResolverSlot?
            let response: Response<Int>
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
                response = pending
                slot = ResolverSlot(resolver)
            case .map(let input, let add):
                response = responses[input].map { $0 &* 3 &+ add }
            case .flatMap(let input, let add):
                response = responses[input].flatMap { value in
                    value % 2 == 0
                        ? .succeeded(value &+ add, on: .immediate) : .failed(CheckerError(code: add), on: .immediate)
                }
            case .recover(let input, let value):
                response = responses[input].recover { _ in value }
            case .all(let inputs, let kind):
                response = Response<[Int]>.all(inputs.map { responses[$0] }, on: executor(kind))
                    .map { values in values.reduce(0) { $0 &* 31 &+ $1 } }
            case .race(let inputs, let kind):
                response = Response<Int>.race(inputs.map { responses[$0] }, on: executor(kind))
            case .zip(let first, let second):
                let zipped: Response<(Int, Int)> = responses[first].zip(responses[second])
                response = zipped.map { pair in pair.0 &* 1000 &+ pair.1 }
            }
            responses.append(response)
            slots.append(slot)
        }

        let tasks = DispatchGroup()
        let built = responses
        let resolvers = slots
        let performStep: @Sendable (Int) -> Void = { index in
            let step = program.steps[index]
            perform(step, index: index, on: built[step.node], slot: resolvers[step.node], log: log, tasks: tasks)
        }
        let indices = program.steps.indices
        for index in indices where program.steps[index].phase == .before { performStep(index) }
        let bodies: [@Sendable () -> Void] = (0..<program.threadCount).map { thread in
            let mine = indices.filter { program.steps[$0].phase == .during && program.steps[$0].thread == thread }
            return { for index in mine { performStep(index) } }
        }
        let reads = program.steps.filter { $0.action == .read }.count
        let joined = runConcurrently(bodies, deadline: .now() + .seconds(10 * (1 + reads)))
        for index in indices where program.steps[index].phase == .after { performStep(index) }
        _ = tasks.wait(timeout: .now() + .seconds(10))

        let finalOutcomes = built.map { response -> Outcome? in
            do {
                return .value(try response.wait(timeout: timeout))
            } catch let error as ResponseError where error == .timedOut {
                return nil
            } catch {
                return Outcome(error: error)
            }
        }
        waitForCallbacks(of: program, outcomes: finalOutcomes, log: log)
        serial.sync {}  // a serial callback enqueued by now has run: a second run would show
        log.seal()
        return RunResult(log: log, finalOutcomes: finalOutcomes, threadsHung: !joined)
    }

    /// Runs one step on the current thread.
    private static func perform(
        _ step: Program.Step, index: Int, on response: Response<Int>, slot: ResolverSlot?, log: RunLog,
        tasks: DispatchGroup
    ) {
        let record = { @Sendable (outcome: Outcome?, start: Int) in
            log.record(
                step: index, .init(outcome: outcome, start: start, end: log.tick()), isCallback: step.action.isCallback)
        }
        switch step.action {
        case .succeed(let value):
            if let resolver = slot?.take() { log.recordEvent(step: index, won: resolver.succeed(value)) }
        case .fail(let code):
            if let resolver = slot?.take() {
                log.recordEvent(step: index, won: resolver.fail(CheckerError(code: code)))
            }
        case .cancel:
            log.recordEvent(step: index, won: response.cancel())
        case .dropResolver:
            slot?.drop()
            log.recordEvent(step: index, won: false)
        case .onCompletion:
            response.onCompletion { record(.value($0), log.tick()) }
        case .onFailure:
            response.onFailure { record(Outcome(error: $0), log.tick()) }
        case .onResult:
            response.onResult { record(Outcome($0), log.tick()) }
        case .read:
            let start = log.tick()
            do {
                record(.value(try response.wait(timeout: timeout)), start)
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
        }
    }

    /// Waits, at most the timeout, until every callback the outcomes call for has run: a read
    /// returns once the response is done, which is before its callbacks are delivered.
    private static func waitForCallbacks(of program: Program, outcomes: [Outcome?], log: RunLog) {
        var expected = 0
        for step in program.steps {
            guard let outcome = outcomes[step.node] else { continue }
            switch step.action {
            case .onResult: expected += 1
            case .onCompletion: expected += outcome.isFailure ? 0 : 1
            case .onFailure: expected += outcome.isFailure ? 1 : 0
            default: break
            }
        }
        let deadline = DispatchTime.now() + .seconds(10)
        while log.callbackRunCount < expected && DispatchTime.now() < deadline {
            usleep(20)
        }
    }
}
