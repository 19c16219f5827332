// How composition is built: whoever waits for a response holds a *claim* on it.
//
// - Deriving adds a claim to the upstream and links the upstream from the derived response.
// - When the derived response finishes, by any route (its upstream finished, it was cancelled, it
//   timed out, a combinator finished early), it releases its claims.
// - A pending response whose last claim is released by a derived response (or an awaiting task
//   that was cancelled) is cancelled: nobody waits for it any more.
// - A user's callback (`onCompletion`, `mainActor.onFailure`, ...) and a blocking read hold a
//   claim too, recorded as they register: so cancelling one consumer's derived response never
//   fails another consumer's callback. A callback keeps its claim until the response is done; a
//   blocking read that gives up returns its claim without cancelling anything.
//
// The upstream holds the derived response strongly (through its internal observer), so a
// fire-and-forget chain (`execute().map { ... }.onCompletion { ... }`) stays alive until it is done.
// Nothing outlives that: an upstream always finishes, if only because its last resolver went away
// (`ResponseError.abandoned`), and finishing drops the observers and the claims.

extension Response {
    /// Makes a pending response that links this one and delivers on this response's executor. Its
    /// claim on this one is recorded by the observer's registration that must follow
    /// (``register(claiming:)``), in the same atomic operation, before anything can finish the
    /// derived response: finishing it gives up that claim.
    @inlinable @inline(__always)
    func makeDerived<T: Sendable>(file: StaticString, line: UInt) -> Response<T> {
        Response<T>(derivedFrom: self, file: file, line: line)
    }

    /// Derives a response from this one: `step` runs once this response is done, in `context`,
    /// unless the derived response is already done (cancelled), and finishes the derived response.
    @inlinable
    func derive<T: Sendable>(
        on context: ResponseExecutor,
        file: StaticString,
        line: UInt,
        _ step: @escaping @Sendable (Result<Value, any Error>, Response<T>, inout CompletionContext) -> Void
    ) -> Response<T> {
        let derived: Response<T> = makeDerived(file: file, line: line)
        if case .immediate = context.kind {
            // Decided here, once: the common observer captures neither the executor nor a test.
            addDerivedObserver(
                .observer { result, completion in
                    guard !derived.isDone else { return }
                    step(result, derived, &completion)
                }
            )
        } else {
            addDerivedObserver(
                .observer { result, _ in
                    guard !derived.isDone else { return }
                    context.run {
                        guard !derived.isDone else { return }
                        // On another executor, off the completion: in the test's scope when the
                        // response was made under the response checks.
                        func runStep() {
                            var completion = CompletionContext()
                            step(result, derived, &completion)
                            completion.runDeferred()
                        }
                        guard derived.isChecked else { return runStep() }
                        ResponseCheckScopeTable.run(inScopeOf: derived, runStep)
                    }
                }
            )
        }
        return derived
    }

    /// Makes `derived` also hold a claim on this response (one it now waits on, as in `flatMap`).
    /// When `derived` is already done, the claim is released at once.
    @usableFromInline
    func link<T: Sendable>(_ derived: Response<T>) {
        addClaim()
        if !derived.addUpstream(self) { releaseClaim() }
    }

    /// Finishes `derived` as this response finishes, and lets `derived`'s cancellation reach this
    /// one: the second half of `flatMap`. A response asked to finish as itself would wait
    /// forever; it fails with ``ResponseError/returnedSelf`` instead (Promises/A+ 2.3.1).
    @usableFromInline
    func forward(to derived: Response<Value>, context: inout CompletionContext) {
        if self === derived {
            // Reported before the failure is: a test blocked on the response hears of it only
            // after its checks have the report.
            ResponseDiagnostics.report(
                .returnedSelf,
                "\(Self.self) created at \(file):\(line) was given itself to wait for (a flatMap or "
                    + "flatMapError returned the response it makes), which can never finish; it failed "
                    + "with ResponseError.returnedSelf",
                file: file,
                line: line,
                about: self
            )
            derived.finishNested(with: .failure(ResponseError.returnedSelf), in: &context)
            return
        }
        link(derived)
        addObserverDuringCompletion(
            .observer { result, completion in derived.finishAsLastAct(with: result, of: &completion) },
            context: &context)
    }
}
