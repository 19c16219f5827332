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
    @inlinable
    func addClaim() {
        word.addClaim()
    }

    @inlinable
    func releaseClaim() {
        if word.removeClaim(), !isDone { cancel() }
    }

    /// Records `upstream` as a response this one waits on; `false` (and nothing recorded) when
    /// this response is already done.
    func addUpstream(_ upstream: any ClaimHolder) -> Bool {
        word.lock()
        defer { word.unlock() }
        guard case .pending = status else { return false }
        if self.upstream == nil {
            self.upstream = upstream
        } else {
            extrasLocked().upstreams.append(upstream)
        }
        return true
    }

    /// Stores a cancellation handler; returns `true` when the caller must run it now (the
    /// response is already cancelled). A handler given to a response done otherwise never runs.
    func addCancellationHandler(_ handler: @escaping @Sendable () -> Void) -> Bool {
        word.lock()
        defer { word.unlock() }
        if word.contains(ResponseWord.cancelled) { return true }
        if case .pending = status { extrasLocked().cancellationHandlers.append(handler) }
        return false
    }

    /// The extras, made on first use. Call with the lock held.
    @usableFromInline
    func extrasLocked() -> ResponseExtras<Value> {
        if let extras { return extras }
        let made = ResponseExtras<Value>()
        extras = made
        return made
    }

    /// Makes a pending response that holds a claim on `upstream` and delivers on this
    /// response's executor.
    @inlinable
    func makeDerived<T: Sendable>(
        claiming upstream: any ClaimHolder,
        file: StaticString,
        line: UInt
    ) -> (response: Response<T>, resolver: ResponseKit.Resolver<T>) {
        upstream.addClaim()
        let derived = Response<T>(status: .pending(.empty), executor: executor, file: file, line: line)
        derived.upstream = upstream  // not shared yet: no lock needed
        return (derived, ResponseKit.Resolver(derived))
    }

    /// Derives a response from this one: `body` runs once this response is done, in the
    /// transformation context, unless the derived response is already done (cancelled).
    @inlinable
    func derive<T: Sendable>(
        on context: ResponseExecutor?,
        file: StaticString,
        line: UInt,
        _ body: @escaping @Sendable (Result<Value, any Error>, ResponseKit.Resolver<T>) -> Void
    ) -> Response<T> {
        let (derived, resolver): (Response<T>, ResponseKit.Resolver<T>) = makeDerived(claiming: self, file: file, line: line)
        observe { result in
            guard !derived.isDone else { return }
            if context == nil, WorkerContext.allowsInlineTransformation {
                WorkerContext.run { body(result, resolver) }  // the common case: no closure to allocate
            } else {
                Self.runTransformation(on: context) { body(result, resolver) }
            }
        }
        return derived
    }

    /// Registers an internal observer that runs inline on the completing thread.
    @inlinable
    func observe(_ body: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        register(.inline(body))
    }

    /// Runs a transformation: on `context` when the caller picked one; otherwise inline, unless
    /// this is the main queue, in which case on a global queue. So a chain of transformations
    /// never needs the main thread, and blocking on its end from the main thread is safe.
    @usableFromInline
    static func runTransformation(on context: ResponseExecutor?, _ body: @escaping @Sendable () -> Void) {
        if let context {
            context.execute(body)
        } else if WorkerContext.allowsInlineTransformation {
            WorkerContext.run(body)
        } else {
            DispatchQueue.global().async { WorkerContext.run(body) }
        }
    }

    /// Makes `derived` also hold a claim on this response (one it now waits on, as in `flatMap`).
    /// When `derived` is already done, the claim is released at once.
    @usableFromInline
    func link<T: Sendable>(_ derived: Response<T>) {
        addClaim()
        if !derived.addUpstream(self) { releaseClaim() }
    }
}
