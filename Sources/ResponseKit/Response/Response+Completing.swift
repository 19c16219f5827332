import CResponseKit
import Dispatch

extension Response {
    /// How a result arrives.
    @usableFromInline
    enum Completion {
        /// From a resolver: a second result is reported.
        case resolving(file: StaticString, line: UInt)
        /// From composition, where inputs race to finish one response: a loser says nothing.
        case racing
        /// From ``Response/cancel()``: runs the work's cancellation handlers.
        case cancelling
        /// From the last resolver's release.
        case abandoning
    }

    /// Completes the response; the first result wins. Runs everything the completion unblocks
    /// before returning.
    @inlinable
    @discardableResult
    func complete(with result: Result<Value, any Error>, how: Completion) -> Bool {
        var context = CompletionContext()
        let completed = complete(with: result, how: how, context: &context)
        context.runDeferred()
        return completed
    }

    /// Completes the response inside a completion already under way (a derived response whose
    /// upstream just finished), handing deep steps back to that completion's loop.
    @inlinable
    func complete(with result: Result<Value, any Error>, chainedIn context: inout CompletionContext) {
        complete(with: result, how: .racing, chainedIn: &context)
    }

    @inlinable
    func complete(with result: Result<Value, any Error>, how: Completion, chainedIn context: inout CompletionContext) {
        if context.depth < CompletionContext.depthLimit {
            // Nested: the observers this completion runs return into the running observer, which
            // may do more, so none of them is in tail position.
            context.depth += 1
            context.inTailPosition = false
            complete(with: result, how: how, context: &context)
            context.depth -= 1
        } else {
            context.handBack { context in self.complete(with: result, how: how, context: &context) }
        }
    }

    /// Completes the response as the **last act** of an observer running inside `context`'s
    /// completion (a step of a chain): when that observer is in tail position, the completion
    /// waits in the context for its loop, so a chain runs flat instead of nesting; otherwise it
    /// nests, as ``complete(with:chainedIn:)``. Nothing of the caller's may follow this call.
    @inlinable
    func complete(with result: Result<Value, any Error>, asLastActOf context: inout CompletionContext) {
        guard context.inTailPosition, context.tail == nil else {
            complete(with: result, how: .racing, chainedIn: &context)
            return
        }
        context.inTailPosition = false
        context.tail = ChainedCompletion(response: self, outcome: ResponseOutcome(result)) {
            response, outcome, context in
            // Made from `self` just above: the downcast holds.
            let response = unsafeDowncast(response, to: Response<Value>.self)
            rk_delivery_begin(UInt(bitPattern: ObjectIdentifier(response)))
            response.complete(outcome: outcome, result: outcome.result(as: Value.self), how: .racing, context: &context)
            rk_delivery_end()
        }
    }

    /// Decides under the lock, then runs cancellation handlers, releases claims and delivers
    /// callbacks outside it, so that no callback runs under a lock.
    @inlinable
    @discardableResult
    func complete(
        with result: Result<Value, any Error>,
        how: Completion,
        context: inout CompletionContext
    ) -> Bool {
        // Made before the lock: storing a large value allocates its box.
        let outcome = ResponseOutcome(result)
        // Recorded for the blocking reads that this completion's own code may make (a
        // cancellation handler or a callback reads this response): on the main queue such a read
        // waits for the delivery to reach it, and this one is further up its stack. Around the
        // call, not inside: there, the opaque C calls made the callbacks be copied instead of
        // moved (a retain and a release each; 130 instructions per W1 operation).
        rk_delivery_begin(UInt(bitPattern: ObjectIdentifier(self)))
        let completed = complete(outcome: outcome, result: result, how: how, context: &context)
        rk_delivery_end()
        return completed
    }

    /// ``complete(with:how:context:)`` with the outcome the machine stores already made.
    ///
    /// - Parameters:
    ///   - outcome: `result` as the machine stores it, owning a copy of its value: the machine
    ///     takes it, or this destroys it when the response was already done.
    ///   - result: what the callbacks receive.
    @inlinable @inline(__always)  // so that `how`, often a constant, folds away
    @discardableResult
    func complete(
        outcome: ResponseOutcome,
        result: Result<Value, any Error>,
        how: Completion,
        context: inout CompletionContext
    ) -> Bool {
        var flags = ResponseFlags.done
        if case .failure = result { flags |= ResponseFlags.failed }
        switch how {
        case .cancelling: flags |= ResponseFlags.cancelled
        case .abandoning: flags |= ResponseFlags.abandoned
        case .resolving, .racing: break
        }
        let succeeded = flags & ResponseFlags.failed == 0
        var links = ResponseFinishedLinks.none
        let action = withLock { machine, flagsOnUnlock in
            let action = machine.complete(with: outcome, succeeded: succeeded, links: &links)
            if case .deliver(let callbacks) = action {
                flagsOnUnlock = flags
                if callbacks.isEmpty {
                    flagsOnUnlock |= ResponseFlags.delivered
                } else if !succeeded, callbacks.observesFailure {  // the flag only matters for a failure
                    flagsOnUnlock |= ResponseFlags.failureObserved
                }
            }
            return action
        }
        switch consume action {
        case .alreadyCompleted(let first):
            outcome.destroyValue(as: Value.self)  // no machine took it
            if case .resolving(let file, let line) = how { reportDuplicate(first: first, file: file, line: line) }
            return false
        case .deliver(let callbacks):
            if rk_load_relaxed(word) & ResponseFlags.tracked != 0 { ResponseTracking.untrack(ObjectIdentifier(self)) }
            // Moved out, not read through a copy nor bound from the action: each copy retained
            // and released what it holds (measured: four retains per step of a chain).
            switch consume links {
            case .none:
                break
            case .upstream(let upstream):
                // A step of a chain: its one claim released, then the reference the machine held.
                ResponseUpstream.releaseClaim(of: upstream, context: &context)
                upstream.release()
            case .links(let links):
                var cancelling = false
                if case .cancelling = how { cancelling = true }
                // Progress ends at 1 before the success callbacks (in the executor's order).
                if let channel = links.finish(cancelling: cancelling, context: &context) {
                    scheduleProgressDelivery(channel)
                }
            }
            if !callbacks.isEmpty { deliver(result, to: callbacks, context: &context) }
            return true
        }
    }

    /// Delivers `result` to the callbacks registered before completion, then to any registered
    /// meanwhile, in order; then marks the response delivered.
    ///
    /// When no callback was queued behind the delivery, one compare-and-swap sets `delivered` and
    /// leaves the machine in `delivering`, which the `delivered` flag makes final; the swap fails
    /// while anyone holds the lock (a registration deciding), and then the lock decides.
    @inlinable @inline(__always)  // into the completion, its one caller: a call less per step of a chain
    func deliver(
        _ result: Result<Value, any Error>,
        to callbacks: consuming CallbackList<Value>,
        context: inout CompletionContext
    ) {
        var batch = consume callbacks
        // Only the last callback of a batch can be in tail position, and only if this delivery is.
        let inTailPosition = context.inTailPosition
        while true {
            switch consume batch {
            case .empty: break
            case .one(let callback):
                // The flag is this delivery's own already (a later batch resets it below).
                deliver(result, to: consume callback, context: &context)
            case .many(let callbacks):
                for index in callbacks.indices {
                    context.inTailPosition = inTailPosition && index == callbacks.count - 1
                    deliver(result, to: callbacks[index], context: &context)
                }
            }
            if rk_set_if_unlocked_and_clear(word, ResponseFlags.lateCallbacks, ResponseFlags.delivered) { return }
            let action = withLock { machine, flagsOnUnlock in
                let action = machine.finishDelivery()
                switch action {
                case .finished: flagsOnUnlock = ResponseFlags.delivered
                case .deliverLate(let late): if late.observesFailure { flagsOnUnlock = ResponseFlags.failureObserved }
                }
                return action
            }
            switch consume action {
            case .finished:
                // Ended under the lock (always on Apple platforms, where the swap above cannot
                // be made; here once a callback joined): a completion the last observer left
                // runs in the owning loop, as after the swap.
                return
            case .deliverLate(let late):
                // Callbacks joined the delivery: a completion the last observer left runs first,
                // as it would have run inside that observer (and as deep).
                context.runTailInsideDelivery()
                context.inTailPosition = inTailPosition
                batch = late
            }
        }
    }

    /// Hands `result` to one callback: inline for internal observers and waiters, through the
    /// executor for user callbacks.
    @inlinable
    func deliver(
        _ result: Result<Value, any Error>,
        to callback: consuming ResponseCallback<Value>,
        context: inout CompletionContext
    ) {
        if case .observer(let body) = callback {
            body(result, &context)
        } else {
            deliver(result, toOtherThanObserver: callback)
        }
    }

    /// ``deliver(_:to:context:)`` for any callback but an internal observer, the only kind that
    /// takes part in a completion: so a registration on a done response, which delivers at once,
    /// makes no completion context for a user callback or a waiter.
    @inlinable
    func deliver(_ result: Result<Value, any Error>, toOtherThanObserver callback: consuming ResponseCallback<Value>) {
        switch consume callback {
        case .observer:
            preconditionFailure("ResponseKit: an observer delivered outside a completion")
        case .waiter(let waiter):
            waiter.wake()
        case .success(let body):
            guard case .success(let value) = result else { return }
            call(body, with: value)
        case .failure(let body):
            guard case .failure(let error) = result else { return }
            call(body, with: error)
        case .result(let body):
            call(body, with: result)
        case .mainActorSuccess(let body):
            guard case .success(let value) = result else { return }
            MainActorDelivery.call(body, with: value, after: executor, from: creationSite)
        case .mainActorFailure(let body):
            guard case .failure(let error) = result else { return }
            MainActorDelivery.call(body, with: error, after: executor, from: creationSite)
        case .mainActorResult(let body):
            MainActorDelivery.call(body, with: result, after: executor, from: creationSite)
        case .elsewhere(let boxed):
            boxed.deliver(result)
        }
    }

    /// Calls a `@Sendable` callback with `argument` where the response's callbacks run: inline, on
    /// the main queue (as a job that allocates no closure), or through the executor.
    @inlinable @inline(__always)
    func call<Argument: Sendable>(_ body: @escaping @Sendable (Argument) -> Void, with argument: Argument) {
        switch executorKindAndLineHigh & ResponseLayout.ExecutorKind.mask {
        case ResponseLayout.ExecutorKind.immediate: body(argument)
        case ResponseLayout.ExecutorKind.main:
            MainActorDelivery.callOnMainQueue(body, with: argument, from: creationSite)
        default: executor.run { body(argument) }
        }
    }

    // MARK: - Registering

    /// Registers a callback of the user's, or delivers it at once when the response is done.
    ///
    /// A callback waits for the result, so it marks the response ``ResponseFlags/observed`` (see
    /// Response+Derive.swift): cancelling a response derived from this one then leaves this one
    /// alone. Internal observers register with ``register(internal:)`` instead (decided at the
    /// call site: a check of the callback's kind here cost a retain and a release per callback).
    @inlinable
    func register(_ callback: consuming ResponseCallback<Value>) {
        register(consume callback, claim: 0, marking: ResponseFlags.observed)
    }

    /// Registers the observer of a response derived from this one, and records that response's
    /// claim on this one in the same atomic operation as the unlock. A response already delivered
    /// records no claim: claims matter only while pending.
    @inlinable
    func register(claiming callback: consuming ResponseCallback<Value>) {
        register(consume callback, claim: ResponseFlags.oneClaim, marking: 0)
    }

    /// Registers an internal observer that waits for nothing on anyone's behalf (a combinator's
    /// input, a timer to cancel): no claim, no mark; whoever it serves holds its own claim.
    @inlinable
    func register(internal callback: consuming ResponseCallback<Value>) {
        register(consume callback, claim: 0, marking: 0)
    }

    /// Registers `callback`, adding `claim` to the claim count and setting the flags `marking` as
    /// the lock is released; a completion context is made only for an internal observer of a
    /// response that is done, to deliver through.
    @inlinable @inline(__always)
    func register(_ callback: consuming ResponseCallback<Value>, claim: UInt32, marking: UInt32) {
        // Moved into the machine rather than copied (a retain, a release; without `consume` the
        // optimiser copied it here: 70 instructions per W1 operation).
        var carried: ResponseCallback<Value>? = consume callback
        guard let result = store(&carried, claim: claim, marking: marking) else { return }
        switch carried.take().unsafelyUnwrapped {
        case .observer(let body):
            var context = CompletionContext()
            body(result, &context)
            context.runDeferred()
        case let other:
            deliver(result, toOtherThanObserver: other)
        }
    }

    /// Registers `callback` inside a completion under way: a done response delivers through that
    /// completion's context, so chains of done responses stay flat too.
    @inlinable
    func register(_ callback: consuming ResponseCallback<Value>, context: inout CompletionContext) {
        var carried: ResponseCallback<Value>? = consume callback
        guard let result = store(&carried, claim: 0, marking: 0) else { return }
        deliver(result, to: carried.take().unsafelyUnwrapped, context: &context)
    }

    /// Takes the callback out of `callback` and stores it, adding `claim` to the claim count and
    /// setting `marking` as the lock is released; or, when the response is done, leaves it there
    /// and returns the result for the caller to deliver it.
    @inlinable @inline(__always)
    func store(
        _ callback: inout ResponseCallback<Value>?,
        claim: UInt32,
        marking: UInt32
    ) -> Result<Value, any Error>? {
        let observesFailure = callback.unsafelyUnwrapped.observesFailure
        if let result = deliveredResult {
            if observesFailure { markFailureObserved() }
            return result
        }
        let action = withLock(addingOnUnlock: claim) { machine, flagsOnUnlock in
            flagsOnUnlock = observesFailure ? marking | ResponseFlags.failureObserved : marking
            return register(&callback, in: &machine, flagsOnUnlock: &flagsOnUnlock)
        }
        // Consumed on every path: a payload-free action then costs no outlined destroy.
        switch consume action {
        case .deliverNow(let result): return result
        case .stored, .queuedBehindDelivery: return nil
        }
    }

    /// The registration transition, told whether a delivery already ended with the flag alone
    /// (stable here: that flag is only set while nobody holds the lock), and marking a callback
    /// queued behind a delivery so that the delivery ends under the lock.
    @inlinable @inline(__always)
    func register(
        _ callback: inout ResponseCallback<Value>?,
        in machine: inout ResponseStateMachine<Value>,
        flagsOnUnlock: inout UInt32
    ) -> ResponseStateMachine<Value>.RegisterAction {
        let deliveryFinished = rk_load_relaxed(word) & ResponseFlags.delivered != 0
        let action = machine.register(&callback, deliveryFinished: deliveryFinished)
        if case .queuedBehindDelivery = action { flagsOnUnlock |= ResponseFlags.lateCallbacks }
        return action
    }

    /// Registers a waiter; `false` (nothing registered) when the response is delivered.
    ///
    /// - Parameter claiming: whether the waiter also records a claim (a blocking read), as the
    ///   lock is released; it gives the claim back when it gives up (``removeWaiter(_:)``). An
    ///   awaiting task records its claim itself.
    func addWaiter(_ waiter: any ResponseWaiter, claiming: Bool = false) -> Bool {
        var callback: ResponseCallback<Value>? = .waiter(waiter)
        let action = withLock(addingOnUnlock: claiming ? ResponseFlags.oneClaim : 0) { machine, flagsOnUnlock in
            register(&callback, in: &machine, flagsOnUnlock: &flagsOnUnlock)
        }
        if case .deliverNow = action { return false }
        return true
    }

    /// Removes a waiter that gave up; `false` when the response already woke it.
    func removeWaiter(_ waiter: any ResponseWaiter) -> Bool {
        withLock { machine, _ in machine.remove(waiter) }
    }

    // MARK: - Links

    /// Records `upstream` as a response this one holds a claim on; `false` (nothing recorded)
    /// when this response is already done.
    @inlinable
    func addUpstream(_ upstream: any ClaimHolder) -> Bool {
        withLock { machine, _ in machine.addUpstream(upstream) }
    }

    /// Stores a cancellation handler, or runs it now when the response is already cancelled. A
    /// handler given to a response that finished otherwise never runs.
    func addCancellationHandler(_ handler: @escaping @Sendable () -> Void) {
        let action = withLock { machine, _ in
            machine.addCancellationHandler(handler, isCancelled: flags & ResponseFlags.cancelled != 0)
        }
        if case .runNow = action { handler() }
    }

    // MARK: - Abandonment

    /// Fails the response with ``ResponseError/abandoned`` if it is still pending: its last
    /// resolver was just released.
    @usableFromInline
    func abandonIfPending() {
        guard flags & ResponseFlags.done == 0 else { return }
        guard complete(with: .failure(ResponseError.abandoned), how: .abandoning) else { return }
        ResponseDiagnostics.report(
            .abandoned,
            "\(Self.self) created at \(file):\(line) was abandoned: its last resolver was released before "
                + "it was resolved, so it failed with ResponseError.abandoned",
            file: file,
            line: line,
            about: self
        )
    }

    // MARK: - Diagnostics

    /// Reports a result that arrived after the response was done, unless the first was a cancellation.
    @usableFromInline
    func reportDuplicate(first: Result<Value, any Error>, file: StaticString, line: UInt) {
        if case .failure(let error) = first, error is CancellationError { return }
        if flags & ResponseFlags.abandoned != 0 { return }
        ResponseDiagnostics.report(
            .resolvedTwice,
            "\(Self.self) created at \(self.file):\(self.line) was resolved again at \(file):\(line); "
                + "the first result (\(Self.summary(of: first))) stands",
            file: self.file,
            line: self.line,
            about: self
        )
    }

    @usableFromInline
    func reportUnobserved(_ error: any Error) {
        guard !(error is CancellationError) else { return }
        // An abandonment was reported where it happened; the responses derived from it carry it on.
        guard (error as? ResponseError) != .abandoned else { return }
        ResponseDiagnostics.report(
            .unobservedFailure,
            "\(Self.self) created at \(file):\(line) failed with \(error) and was released "
                + "without anyone observing the failure (no onFailure, always, blocking read or await)",
            file: file,
            line: line,
            about: self
        )
    }
}

extension Response: ClaimHolder {
    // Called through the protocol, so unspecialised: the common path (a claim released from a
    // response that is done) must mention no type built from `Value`, whose metadata an
    // unspecialised function looks up on entry (measured: one `Result` lookup, about 330
    // instructions, per step of a chain). The cancellation goes out of line.

    /// Gives up one claim; cancels the response when it was the last one and it is pending. A
    /// response that is done is left alone: its claims no longer matter.
    @inlinable
    func releaseClaim() {
        guard !isDone else { return }
        if releaseClaimDecidingCancel(wantsCancel: true), !isDone { cancel() }
    }

    @inlinable
    func releaseClaim(context: inout CompletionContext) {
        guard !isDone else { return }
        if releaseClaimDecidingCancel(wantsCancel: true), !isDone { cancelAfterLastClaim(context: &context) }
    }

    /// Gives up a blocking read's claim: the read gave up (a timeout, its task's cancellation),
    /// which cancels nothing of its own; but when a derived response or a task let go wanting
    /// the response cancelled while this read still waited, the read was the last to let go, and
    /// that cancellation happens now.
    func releaseReaderClaim() {
        guard !isDone else { return }
        if releaseClaimDecidingCancel(wantsCancel: false), !isDone { cancel() }
    }

    /// Cancels the response because nobody waits for it any more.
    @usableFromInline @inline(never)
    func cancelAfterLastClaim(context: inout CompletionContext) {
        complete(with: .failure(CancellationError()), how: .cancelling, chainedIn: &context)
    }
}
