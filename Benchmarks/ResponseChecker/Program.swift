/// A checker program as data: the responses it builds, and the steps that race over them.
///
/// Data rather than closures so that one seed regenerates it (`--replay`), it can be printed, and
/// the shrinker can drop one step or one response and run what is left.
struct Program: Sendable {
    /// Where a response delivers its callbacks.
    enum Executor: String, Sendable, CaseIterable {
        case immediate
        /// One serial `DispatchQueue` shared by the program.
        case serial
        case global
        /// `DispatchQueue.main`, serviced by `dispatchMain()` while the program runs elsewhere.
        case main
        /// `ManualExecutor` from ResponseKitTesting: jobs run when a `drain` step (on racing thread
        /// 0 only, so they keep their order) or the end of the run says so.
        case custom

        /// Whether callbacks start one after another, in registration order.
        var isSerial: Bool { self != .global }
    }

    /// The source of time of a `timeout` or `delay`.
    enum Clock: String, Sendable {
        /// `ManualScheduler`: time moves at `advance` steps (racing thread 0 only) and, for a
        /// program with a manual `delay`, once more before the outcomes are read.
        case manual
        /// `DispatchScheduler`, in real time: a few hundred microseconds at most, so the timer
        /// races the work.
        case real
    }

    /// One response of the program, built in order from the ones before it.
    enum Node: Sendable {
        /// `Response<Int>.pending(on:)`; resolved by the program's events.
        case source(Executor, cancelHandler: Bool)
        /// `Response(on: queue, executor:) { value }`: finishes by itself, once the race starts
        /// (the queue is `World.gate`, a concurrent queue on the global pool).
        case body(value: Int, Executor)
        /// `input.map { $0 &* 3 &+ add }`.
        case map(input: Int, add: Int)
        /// `input.flatMap`: an even value gives `.succeeded(value &+ add)`, an odd one `.failed(code: add)`.
        case flatMap(input: Int, add: Int)
        /// `input.recover { _ in value }`.
        case recover(input: Int, value: Int)
        /// `input.flatMapError`: a `failed(code:)` with an even code gives `.succeeded(200 &+ code)`,
        /// any other error `.failed(code: 10 &+ add)`.
        case flatMapError(input: Int, add: Int)
        /// `input.mapError`: a failure other than cancellation becomes `.failed(code: 20 &+ add)`.
        case mapError(input: Int, add: Int)
        /// `input.always { result in ... }`: the same outcome, and its body runs exactly once,
        /// with that outcome (or with the cancellation that finished it first).
        case always(input: Int)
        /// `Response.all(inputs, on:)`, folded to one `Int` in order (`h &* 31 &+ v`).
        case all(inputs: [Int], Executor)
        /// `Response.race(inputs, on:)`.
        case race(inputs: [Int], Executor)
        /// `Response.any(inputs, on:)`.
        case any(inputs: [Int], Executor)
        /// `Response.allSettled(inputs, on:)`, folded to one `Int` in order (``Outcome/settledCode``).
        case allSettled(inputs: [Int], Executor)
        /// `first.zip(second)`, folded to `a &* 1000 &+ b`.
        case zip(Int, Int)
        /// `input.timeout(after: .microseconds(limit), scheduler:)`.
        case timeout(input: Int, Clock, limit: Int)
        /// `input.delay(by: .microseconds(interval), scheduler:)`.
        case delay(input: Int, Clock, interval: Int)

        /// The responses this one is made from.
        var inputs: [Int] {
            switch self {
            case .source, .body: []
            case .map(let input, _), .flatMap(let input, _), .recover(let input, _), .flatMapError(let input, _),
                .mapError(let input, _), .always(let input), .timeout(let input, _, _), .delay(let input, _, _):
                [input]
            case .all(let inputs, _), .race(let inputs, _), .any(let inputs, _), .allSettled(let inputs, _): inputs
            case .zip(let first, let second): [first, second]
            }
        }

        /// A pending response the program resolves through its resolver.
        var isSource: Bool {
            if case .source = self { return true }
            return false
        }

        /// The same node with its inputs renumbered (the shrinker removes responses).
        func renumbered(_ renumber: (Int) -> Int) -> Node {
            switch self {
            case .source, .body: self
            case .map(let input, let add): .map(input: renumber(input), add: add)
            case .flatMap(let input, let add): .flatMap(input: renumber(input), add: add)
            case .recover(let input, let value): .recover(input: renumber(input), value: value)
            case .flatMapError(let input, let add): .flatMapError(input: renumber(input), add: add)
            case .mapError(let input, let add): .mapError(input: renumber(input), add: add)
            case .always(let input): .always(input: renumber(input))
            case .all(let inputs, let executor): .all(inputs: inputs.map(renumber), executor)
            case .race(let inputs, let executor): .race(inputs: inputs.map(renumber), executor)
            case .any(let inputs, let executor): .any(inputs: inputs.map(renumber), executor)
            case .allSettled(let inputs, let executor): .allSettled(inputs: inputs.map(renumber), executor)
            case .zip(let first, let second): .zip(renumber(first), renumber(second))
            case .timeout(let input, let clock, let limit): .timeout(input: renumber(input), clock, limit: limit)
            case .delay(let input, let clock, let interval): .delay(input: renumber(input), clock, interval: interval)
            }
        }
    }

    /// What a step does to its response.
    enum Action: Sendable, Equatable {
        case succeed(Int)
        case fail(code: Int)
        /// `cancel()`, on a source or on any derived response.
        case cancel
        /// Lets go of the program's only stored copy of the resolver.
        case dropResolver
        case onCompletion
        case onFailure
        case onResult
        /// `mainActor.onResult`, registered from the main queue as a presenter does: delivered
        /// on the main actor, whatever the executor.
        case mainActorOnResult
        /// `onResult(isolatedTo:)` an actor: delivered in a task of its own, in no set order.
        case actorOnResult
        /// `wait(timeout: 10 s)` on a thread that resolves nothing, so it can never block a resolution.
        case read
        /// `await get()` in a detached task.
        case await
        /// Moves the program's `ManualScheduler` forward (its step's response is not used).
        case advance(microseconds: Int)
        /// Runs the jobs queued on the program's `ManualExecutor` (its step's response is not used).
        case drain

        /// One of the racing ways a response may be finished (as opposed to a consumer): a
        /// resolution of a source, or `cancel()` of any response.
        var isEvent: Bool {
            switch self {
            case .succeed, .fail, .cancel, .dropResolver: true
            default: false
            }
        }

        /// A step that works the program's clock or executor rather than a response.
        var isMachinery: Bool {
            switch self {
            case .advance, .drain: true
            default: false
            }
        }

        var isCallback: Bool {
            switch self {
            case .onCompletion, .onFailure, .onResult, .mainActorOnResult, .actorOnResult: true
            default: false
            }
        }

        /// A consumer: holds a claim on its response until the response is done.
        var isConsumer: Bool { isCallback || self == .read || self == .await }
    }

    /// When a step runs: on the controlling thread before the racing threads start, on one of
    /// them, or on the controlling thread once they have all returned.
    enum Phase: Int, Sendable {
        case before
        case during
        case after
    }

    struct Step: Sendable {
        var node: Int
        var action: Action
        var phase: Phase
        /// The racing thread (`during` only); each runs its steps in program order.
        var thread: Int
    }

    var seed: UInt64
    var nodes: [Node]
    var steps: [Step]
    var threadCount: Int

    /// The executor that delivers node `index`'s callbacks: derived responses deliver on their
    /// input's executor (`zip` on its first's), combinators and bodies on the one they were given.
    func executor(of index: Int) -> Executor {
        switch nodes[index] {
        case .source(let executor, _), .body(_, let executor), .all(_, let executor), .race(_, let executor),
            .any(_, let executor), .allSettled(_, let executor):
            executor
        case .map(let input, _), .flatMap(let input, _), .recover(let input, _), .flatMapError(let input, _),
            .mapError(let input, _), .always(let input), .zip(let input, _), .timeout(let input, _, _),
            .delay(let input, _, _):
            executor(of: input)
        }
    }

    /// Whether some response delivers through the program's `ManualExecutor`, which `drain`
    /// steps (and the run's end) work.
    var usesCustomExecutor: Bool { nodes.indices.contains { executor(of: $0) == .custom } }

    /// Whether a manual-clock `delay` needs the clock moved before its response can finish.
    var hasManualDelay: Bool {
        nodes.contains { if case .delay(_, .manual, _) = $0 { true } else { false } }
    }
}
