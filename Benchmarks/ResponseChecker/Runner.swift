import Dispatch
import Foundation
import ResponseKit
import ResponseKitTesting

/// What one run of a program left for the model to check.
struct RunResult {
    let log: RunLog
    /// Each response's outcome, read once every thread and task has returned; `nil` when a read
    /// with the generous timeout gave up (a hang).
    let finalOutcomes: [Outcome?]
    /// Whether a racing thread was still running at the deadline (a read there hung).
    let threadsHung: Bool
}

/// Builds a program's responses and runs its steps: before, on the controlling thread; during,
/// on racing threads released together; after, on the controlling thread again. Then it moves
/// the manual clock and drains the manual executor until every response is done, reads every
/// response, and waits (bounded) for the callbacks its outcome calls for.
///
/// The controlling thread is not the main thread: that one is in `dispatchMain()`, serving the
/// main queue, so `.main` and main-actor callbacks run as in a server.
enum Runner {
    /// Generous: only a broken library waits this long, and then the wait is reported as a hang.
    static let timeout = Duration.seconds(10)

    static func run(_ program: Program) -> RunResult {
        let log = RunLog(seed: program.seed)
        let world = World(program: program, log: log)
        let tasks = DispatchGroup()
        let performStep: @Sendable (Int) -> Void = { index in world.perform(step: index, tasks: tasks) }
        let indices = program.steps.indices
        for index in indices where program.steps[index].phase == .before { performStep(index) }
        let bodies: [@Sendable () -> Void] = (0..<program.threadCount).map { thread in
            let mine = indices.filter { program.steps[$0].phase == .during && program.steps[$0].thread == thread }
            return { for index in mine { performStep(index) } }
        }
        let reads = program.steps.filter { $0.action == .read }.count
        world.open()
        let joined = runConcurrently(bodies, deadline: .now() + .seconds(10 * (1 + reads)))
        for index in indices where program.steps[index].phase == .after { performStep(index) }
        world.settle(until: .now() + .seconds(10))
        _ = tasks.wait(timeout: .now() + .seconds(10))

        let finalOutcomes = world.responses.map { response -> Outcome? in
            do {
                return .value(try response.wait(timeout: timeout))
            } catch let error as ResponseError where error == .timedOut {
                return nil
            } catch {
                return Outcome(error: error)
            }
        }
        world.waitForCallbacks(outcomes: finalOutcomes, until: .now() + .seconds(10))
        log.seal()
        return RunResult(log: log, finalOutcomes: finalOutcomes, threadsHung: !joined)
    }
}
