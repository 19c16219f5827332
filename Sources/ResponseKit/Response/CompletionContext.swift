/// The completion under way on this thread, passed along by hand so the stack stays flat.
///
/// Completing a response runs its internal observers inline, and the observer of a `map` completes
/// the next response: one set of stack frames per step, so a long chain finishing at once would
/// overflow the stack (a few thousand steps in debug builds). Each completion therefore carries
/// this context: a chain nests up to ``depthLimit`` steps, and deeper steps are handed back to the
/// loop of the completion that started them, which runs them before it returns (as SwiftNIO's
/// `CallbackList` does). Nothing is kept per thread: a response resolved independently inside a
/// callback starts a context of its own and finishes at once, at any depth.
///
/// A step of a chain whose observer is the last callback of its response (the common case: one
/// `map` on each response) does not nest at all: it leaves its completion in ``tail``, and the
/// loop that owns the context runs it after the observer has returned (unless callbacks joined the
/// delivery that observer ended: that delivery runs it before them, nested, as the completion it
/// stands for; see ``runTailInsideDelivery()``). Nested, a ten-step chain went deeper than the
/// processor's return-address predictor holds, and every return beyond that was mispredicted
/// (Benchmarks/README.md, "Measurements behind the engine's comments").
@usableFromInline
struct CompletionContext {
    /// How many chained completions are nested on the stack right now.
    @usableFromInline var depth = 0
    /// Completions handed back to this context's loop, in order; `nil` until the first, so that a
    /// context that defers nothing (almost all of them) never touches an array's storage.
    @usableFromInline var deferred: [(inout CompletionContext) -> Void]? = nil
    /// Whether the observer running now is in tail position: once it returns, nothing runs
    /// before control is back in the loop that owns this context (it is the last callback of its
    /// batch, all the way up). Only then may it leave its completion in ``tail``.
    @usableFromInline var inTailPosition = true
    /// A chained completion left by an observer in tail position, for the owning loop to run.
    @usableFromInline var tail: ChainedCompletion? = nil

    /// How deep chained completions nest before they are handed back to the loop.
    @inlinable static var depthLimit: Int { 64 }

    @inlinable
    init() {}

    /// Hands `step` to the loop: it runs after what runs now, before the completion returns.
    @usableFromInline
    mutating func handBack(_ step: @escaping (inout CompletionContext) -> Void) {
        if deferred == nil { deferred = [] }
        deferred?.append(step)
    }

    /// Runs what was handed back, including what that hands back, in order. The loop that
    /// started the completion calls it before returning.
    @inlinable
    mutating func runDeferred() {
        runTail()
        guard deferred != nil else { return }
        runDeferredSlowly()
    }

    /// Runs the completion left in ``tail``, and the one that leaves, and so on: a chain, one step
    /// after another, at this depth.
    @inlinable
    mutating func runTail() {
        while let step = tail.take() {
            inTailPosition = true
            step.resume(step.response, step.outcome, &self)
        }
    }

    /// Runs the completion left in ``tail`` inside a delivery that goes on after it (callbacks
    /// joined that delivery, and the completion must finish before them): nested in the observer
    /// that left it, as it stands for, so it counts against ``depthLimit`` like a chained
    /// completion and past it is handed back to the loop. Run at the same depth instead, a chain
    /// whose every step has callbacks joining its delivery nested one delivery per step.
    @inlinable
    mutating func runTailInsideDelivery() {
        guard tail != nil else { return }
        if depth < Self.depthLimit {
            depth += 1
            runTail()
            depth -= 1
        } else {
            let step = tail.take().unsafelyUnwrapped
            handBack { context in step.resume(step.response, step.outcome, &context) }
        }
    }

    @usableFromInline
    mutating func runDeferredSlowly() {
        var next = 0
        // Indexed each time rather than iterated: steps append to `deferred` as it runs, and a
        // copy held across `step` would make every append copy the array.
        while next < deferred?.count ?? 0 {
            let step = deferred.unsafelyUnwrapped[next]
            next += 1
            let savedDepth = depth
            depth = 0
            inTailPosition = true
            step(&self)
            runTail()
            depth = savedDepth
        }
        deferred = nil
    }
}

/// A response's completion, made by the last act of an observer in tail position and run by the
/// loop that owns the context (see ``CompletionContext/tail``).
///
/// Without the response's value type: the result travels as the ``ResponseOutcome`` the machine
/// will store (which owns its value), and `resume`, made where the type is known, finishes the
/// response. Made in specialised code, `resume` captures nothing and costs no allocation.
@usableFromInline
struct ChainedCompletion {
    /// The response to complete.
    @usableFromInline let response: AnyObject
    /// Its result; owned until `resume` hands it to the response.
    @usableFromInline let outcome: ResponseOutcome
    /// Completes `response` (a `Response` of the value type `outcome` holds) with `outcome`.
    @usableFromInline let resume: (AnyObject, ResponseOutcome, inout CompletionContext) -> Void

    @inlinable
    init(
        response: AnyObject,
        outcome: ResponseOutcome,
        resume: @escaping (AnyObject, ResponseOutcome, inout CompletionContext) -> Void
    ) {
        self.response = response
        self.outcome = outcome
        self.resume = resume
    }
}
