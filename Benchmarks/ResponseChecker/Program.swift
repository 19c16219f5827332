/// A checker program as data: the responses it builds, and the steps that race over them.
///
/// Data rather than closures so that one seed regenerates it (`--replay`), it can be printed, and
/// the shrinker can drop one step or one response and run what is left.
struct Program: Sendable {
    /// Where a response delivers its callbacks. `.main` is left out: the checker blocks the main
    /// thread while a program runs, so nothing would drain the main queue.
    enum Executor: String, Sendable {
        case immediate
        case serial
        case global
    }

    /// One response of the program, built in order from the ones before it.
    enum Node: Sendable {
        /// `Response<Int>.pending(on:)`; resolved by the program's events.
        case source(Executor, cancelHandler: Bool)
        /// `input.map { $0 &* 3 &+ add }`.
        case map(input: Int, add: Int)
        /// `input.flatMap`: an even value gives `.succeeded(value &+ add)`, an odd one `.failed(code: add)`.
        case flatMap(input: Int, add: Int)
        /// `input.recover { _ in value }`.
        case recover(input: Int, value: Int)
        /// `Response.all(inputs, on:)`, folded to one `Int` in order (`h &* 31 &+ v`).
        case all(inputs: [Int], Executor)
        /// `Response.race(inputs, on:)`.
        case race(inputs: [Int], Executor)
        /// `first.zip(second)`, folded to `a &* 1000 &+ b`.
        case zip(Int, Int)

        /// The responses this one is made from.
        var inputs: [Int] {
            switch self {
            case .source: []
            case .map(let input, _), .flatMap(let input, _), .recover(let input, _): [input]
            case .all(let inputs, _), .race(let inputs, _): inputs
            case .zip(let first, let second): [first, second]
            }
        }

        var isSource: Bool {
            if case .source = self { return true }
            return false
        }

        /// The same node with its inputs renumbered (the shrinker removes responses).
        func renumbered(_ renumber: (Int) -> Int) -> Node {
            switch self {
            case .source: self
            case .map(let input, let add): .map(input: renumber(input), add: add)
            case .flatMap(let input, let add): .flatMap(input: renumber(input), add: add)
            case .recover(let input, let value): .recover(input: renumber(input), value: value)
            case .all(let inputs, let executor): .all(inputs: inputs.map(renumber), executor)
            case .race(let inputs, let executor): .race(inputs: inputs.map(renumber), executor)
            case .zip(let first, let second): .zip(renumber(first), renumber(second))
            }
        }
    }

    /// What a step does to its response.
    enum Action: Sendable, Equatable {
        case succeed(Int)
        case fail(code: Int)
        case cancel
        /// Lets go of the program's only stored copy of the resolver.
        case dropResolver
        case onCompletion
        case onFailure
        case onResult
        /// `wait(timeout: 10 s)` on a thread that resolves nothing, so it can never block a resolution.
        case read
        /// `await get()` in a detached task.
        case await

        /// One of the racing resolutions of a source (as opposed to a consumer).
        var isEvent: Bool {
            switch self {
            case .succeed, .fail, .cancel, .dropResolver: true
            default: false
            }
        }

        var isCallback: Bool { self == .onCompletion || self == .onFailure || self == .onResult }
    }

    /// When a step runs: on the main thread before the racing threads start, on one of them, or on
    /// the main thread once they have all returned.
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
    /// input's executor (`zip` on its first's), combinators on the one they were given.
    func executor(of index: Int) -> Executor {
        switch nodes[index] {
        case .source(let executor, _), .all(_, let executor), .race(_, let executor): executor
        case .map(let input, _), .flatMap(let input, _), .recover(let input, _), .zip(let input, _):
            executor(of: input)
        }
    }
}
