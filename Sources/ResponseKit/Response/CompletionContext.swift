/// The completion under way on this thread, passed along by hand so the stack stays flat.
///
/// Completing a response runs its internal observers inline, and the observer of a `map` completes
/// the next response: one set of stack frames per step, so a long chain finishing at once would
/// overflow the stack (measured: about 5,000 steps in debug). Each completion therefore carries
/// this context: a chain nests up to ``depthLimit`` steps, and deeper steps are handed back to the
/// loop of the completion that started them, which runs them before it returns (as SwiftNIO's
/// `CallbackList` does). Nothing is kept per thread: a response resolved independently inside a
/// callback starts a context of its own and finishes at once, at any depth.
@usableFromInline
struct CompletionContext {
    /// How many chained completions are nested on the stack right now.
    @usableFromInline var depth = 0
    /// Completions handed back to this context's loop, in order; `nil` until the first, so that a
    /// context that defers nothing (almost all of them) never touches an array's storage.
    @usableFromInline var deferred: [(inout CompletionContext) -> Void]? = nil

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
        guard deferred != nil else { return }
        runDeferredSlowly()
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
            step(&self)
            depth = savedDepth
        }
        deferred = nil
    }
}
