import Dispatch

// How composition is built: a derived response holds a *claim* on each response it waits on.
//
// - Deriving adds a claim to the upstream and links the upstream from the derived response.
// - When the derived response finishes, by any route (its upstream finished, it was cancelled, it
//   timed out, a combinator finished early), it releases its claims.
// - A pending response whose last claim is released is cancelled: nobody waits for it any more.
//   Callbacks and blocking reads observe a response but make no claim, so they do not keep work
//   alive; a second derived response does.
//
// The upstream holds the derived response strongly (through its internal callback), so a
// fire-and-forget chain (`execute().map { ... }.onCompletion { ... }`) stays alive until it is done.

extension Response: ClaimHolder {
    func addClaim() {
        state.withLock { $0.claims += 1 }
    }

    func releaseClaim() {
        let cancelNow = state.withLock { state -> Bool in
            state.claims -= 1
            return state.claims == 0 && state.result == nil
        }
        if cancelNow { cancel() }
    }

    /// Makes a pending response that holds a claim on `upstreams` and delivers on this
    /// response's executor.
    func makeDerived<T: Sendable>(
        claiming upstreams: [any ClaimHolder],
        file: StaticString,
        line: UInt
    ) -> (response: Response<T>, resolver: ResponseKit.Resolver<T>) {
        var state = ResponseState<T>()
        for upstream in upstreams {
            upstream.addClaim()
            state.upstreams.append(upstream)
        }
        let derived = Response<T>(state: state, executor: executor, file: file, line: line)
        return (derived, ResponseKit.Resolver(derived))
    }

    /// Derives a response from this one: `body` runs once this response is done, in the
    /// transformation context, unless the derived response is already done (cancelled).
    func derive<T: Sendable>(
        on context: ResponseExecutor?,
        file: StaticString,
        line: UInt,
        _ body: @escaping @Sendable (Result<Value, any Error>, ResponseKit.Resolver<T>) -> Void
    ) -> Response<T> {
        let (derived, resolver): (Response<T>, ResponseKit.Resolver<T>) = makeDerived(claiming: [self], file: file, line: line)
        observe { result in
            guard !derived.isDone else { return }
            Self.runTransformation(on: context) { body(result, resolver) }
        }
        return derived
    }

    /// Registers an internal observer that runs inline on the completing thread.
    func observe(_ body: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        register(ResponseCallback(body: .result(body), isolation: nil, isInline: true))
    }

    /// Runs a transformation: on `context` when the caller picked one; otherwise inline, unless
    /// this is the main queue, in which case on a global queue. So a chain of transformations
    /// never needs the main thread, and blocking on its end from the main thread is safe.
    static func runTransformation(on context: ResponseExecutor?, _ body: @escaping @Sendable () -> Void) {
        if let context {
            context.execute(body)
        } else if MainQueue.isCurrent {
            DispatchQueue.global().async(execute: body)
        } else {
            body()
        }
    }

    /// Makes `derived` also hold a claim on `other` (a response it now waits on, as in `flatMap`).
    /// When `derived` is already done, the claim is released at once.
    func link<T: Sendable>(_ derived: Response<T>) {
        addClaim()
        let linked = derived.state.withLock { state -> Bool in
            guard state.result == nil else { return false }
            state.upstreams.append(self)
            return true
        }
        if !linked { releaseClaim() }
    }
}
