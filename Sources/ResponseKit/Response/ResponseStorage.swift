import CResponseKit

// A response's storage is the response object itself: the state machine, and beside it the state
// word (lock, flags, claims), where C11 atomics reach it by address (`ResponseLayout`), so that a
// response is one allocation. `StateWordLock`, here, is the only code that takes a state word's
// lock (the combinators' `Collector` keeps a word too and locks through it).
//
// One convention for acting on the machine: every change is a transition run by `apply`, which
// gives it the flags read under the lock (so no transition writes a delivered machine) and sets
// the flags it returns as the lock is released; the caller then runs the transition's action
// outside the lock. Reads go through `read`, which hands out the machine immutable. The code that
// runs transitions is this file and Response+Progress.swift (progress's own actions);
// `.ci/check-machine-access` fails CI when `apply` is called anywhere else. Every access to
// `lockedMachine` goes through `read` or `apply`, except the documented lock-free read of a
// delivered result (`deliveredResult`) and the set-up of a response nobody else can reach yet
// (`beforeSharing`).
//
// Two flags are set outside the machine, by `setFlags`, because they describe who looked rather
// than what the response holds, and setting them must not take the lock: `failureObserved`
// (`markFailureObserved`, on a read of the outcome) and `checked` (`setChecked`, by the test
// checks' table). Both are only ever set, never cleared, and no transition reads them to decide
// whether to write the machine.

/// What a state machine transition decided: the action its storage runs after releasing the
/// lock, and the flags of the state word the transition sets, which the storage sets in the same
/// atomic operation that releases the lock (flags are never cleared).
@usableFromInline
struct ResponseTransition<Action> {
    @usableFromInline var action: Action
    @usableFromInline var flags: UInt32

    @inlinable @inline(__always)
    init(_ action: consuming Action, flags: UInt32 = 0) {
        self.action = action
        self.flags = flags
    }
}

/// The lock in a state word (`rk_word`): the only code that takes one, for the types that keep
/// their word beside the data it guards (a response, a combinator's `Collector`).
@usableFromInline
enum StateWordLock {
    /// Runs `body` with the lock held.
    @inlinable @inline(__always)
    static func withLock<Result>(_ word: UnsafeMutablePointer<rk_word>, _ body: () -> Result) -> Result {
        rk_lock(word)
        let result = body()
        rk_unlock(word)
        return result
    }

    /// Runs `body`, given the flags read under the lock, with the lock held; releases it setting
    /// the flags `body` decided and adding `amount`, in one atomic operation where the lock lives
    /// in the word.
    @inlinable @inline(__always)
    static func withLock<Action>(
        _ word: UnsafeMutablePointer<rk_word>,
        addingOnUnlock amount: UInt32,
        _ body: (UInt32) -> ResponseTransition<Action>
    ) -> Action {
        rk_lock(word)
        let transition = body(rk_load_relaxed(word))
        if transition.flags == 0 && amount == 0 {
            rk_unlock(word)
        } else {
            rk_unlock_setting_adding(word, transition.flags, amount)
        }
        return transition.action
    }
}

extension Response {
    /// The state word, at a fixed offset from the object's stored properties (`ResponseLayout`);
    /// reached this way, without the value type's metadata, so that unspecialised code (a deinit)
    /// reads the flags cheaply.
    @inlinable @inline(__always)
    var word: UnsafeMutablePointer<rk_word> {
        ResponseLayout.word(of: self)
    }

    /// Reads the state machine under the lock. A read only: `body` gets the machine immutable, so
    /// every change goes through ``apply(addingOnUnlock:_:)`` (one convention for acting on the
    /// machine). Keep `body` to the machine: never user code.
    @inlinable @inline(__always)
    func read<Result>(_ body: (borrowing ResponseStateMachine<Value>) -> Result) -> Result {
        StateWordLock.withLock(word) { body(lockedMachine) }
    }

    /// Runs a transition under the lock, given the flags read under it, and sets the flags it
    /// decided as the lock is released (adding `amount`, a claim, in the same atomic operation);
    /// returns its action, which the caller runs after the lock is released.
    @inlinable @inline(__always)
    func apply<Action>(
        addingOnUnlock amount: UInt32 = 0,
        _ transition: (inout ResponseStateMachine<Value>, UInt32) -> ResponseTransition<Action>
    ) -> Action {
        StateWordLock.withLock(word, addingOnUnlock: amount) { flags in transition(&lockedMachine, flags) }
    }

    /// The flags, with acquire ordering.
    @inlinable @inline(__always)
    var flags: UInt32 {
        rk_load_acquire(word)
    }

    /// Runs `body` on the machine of a response that only its maker can reach so far (composition
    /// setting up a response it has just made): without the lock, unless the response is tracked,
    /// since the tracker holds it from its creation and may read it (under the lock) at any time.
    @inlinable @inline(__always)
    func beforeSharing<Result>(_ body: (inout ResponseStateMachine<Value>) -> Result) -> Result {
        if rk_load_relaxed(word) & ResponseFlags.tracked == 0 { return body(&lockedMachine) }
        return apply { machine, _ in ResponseTransition(body(&machine)) }
    }

    /// Sets `flags` without the lock.
    @inlinable @inline(__always)
    func setFlags(_ flags: UInt32) {
        rk_fetch_or(word, flags)
    }

    /// The result once it has been delivered to every callback, read **without the lock**: the
    /// one documented fast path. After `delivered` is set (with release ordering, after the
    /// machine became final; see the note on `Response`), nothing writes the machine again, so a
    /// reader that sees the flag (acquire) may read it. `nil` before that, whatever the state.
    ///
    /// The state is read through a typed pointer (`ResponseLayout.state(of:)`), not through the
    /// `machine` property: under the thread sanitizer, a transition's `inout` access to `machine`
    /// (a late `complete`, a waiter added, which write nothing once delivered) counts as a write
    /// of the whole property, and a read of `machine` overlapping it is reported as a race.
    @inlinable @inline(__always)
    var deliveredResult: Result<Value, any Error>? {
        guard flags & ResponseFlags.delivered != 0 else { return nil }
        switch ResponseLayout.state(of: self).pointee {
        case .delivering(let outcome), .done(let outcome):
            assert(isTheMachinesOutcome(outcome), "ResponseKit: the lock-free read disagrees with the machine")
            return outcome.result(as: Value.self)
        case .pending:
            preconditionFailure("ResponseKit: a delivered response has no result")
        }
    }

    /// Debug builds: whether `outcome`, read without the lock, is what the machine holds under it
    /// (the same case; the same bits in a success's slot, the same dynamic type of error).
    @usableFromInline
    func isTheMachinesOutcome(_ outcome: ResponseOutcome) -> Bool {
        read { machine in
            let stored: ResponseOutcome
            switch machine.state {
            case .pending: return false
            case .delivering(let outcome), .done(let outcome): stored = outcome
            }
            switch (stored, outcome) {
            case (.success(let stored), .success(let read)): return stored.words == read.words
            case (.failure(let stored), .failure(let read)): return type(of: stored) == type(of: read)
            default: return false
            }
        }
    }

    /// The result if the response has one: without the lock once delivered, with it before.
    @inlinable
    var currentResult: Result<Value, any Error>? {
        let flags = self.flags
        if flags & ResponseFlags.delivered != 0 { return deliveredResult }
        guard flags & ResponseFlags.done != 0 else { return nil }
        return read { machine in machine.result }
    }

    /// How many callbacks wait for the result.
    var waitingCallbackCount: Int {
        read { machine in machine.waitingCallbackCount }
    }
}

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

    /// Completes the response; the first result wins. Owns the completion: runs everything it
    /// unblocks (chained steps handed back) before returning.
    @inlinable
    @discardableResult
    func finish(with result: Result<Value, any Error>, how: Completion) -> Bool {
        var context = CompletionContext()
        let completed = complete(with: result, how: how, context: &context)
        context.runDeferred()
        return completed
    }

    /// Completes the response inside a completion already under way (a derived response whose
    /// upstream just finished), handing deep steps back to that completion's loop.
    @inlinable
    func finishNested(
        with result: Result<Value, any Error>,
        how: Completion = .racing,
        in context: inout CompletionContext
    ) {
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
    /// nests, as ``finishNested(with:how:in:)``. Nothing of the caller's may follow this call.
    @inlinable
    func finishAsLastAct(with result: Result<Value, any Error>, of context: inout CompletionContext) {
        guard context.inTailPosition, context.tail == nil else {
            finishNested(with: result, in: &context)
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
        // moved (Benchmarks/README.md, "What the engine's shape saves").
        rk_delivery_begin(UInt(bitPattern: ObjectIdentifier(self)))
        let completed = complete(outcome: outcome, result: result, how: how, context: &context)
        rk_delivery_end()
        return completed
    }

    /// The decide-then-act step of every completion (``complete(with:how:context:)`` with the outcome
    /// the machine stores already made): the machine decides under the lock, then this finishes the
    /// links and delivers outside it.
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
        var succeeded = true
        if case .failure = result { succeeded = false }
        let cause: UInt32
        switch how {
        case .cancelling: cause = ResponseFlags.cancelled
        case .abandoning: cause = ResponseFlags.abandoned
        case .resolving, .racing: cause = 0
        }
        var links = ResponseFinishedLinks.none
        let action = apply { machine, _ in
            machine.complete(with: outcome, succeeded: succeeded, cause: cause, links: &links)
        }
        switch consume action {
        case .alreadyCompleted(let first):
            outcome.destroyValue(as: Value.self)  // no machine took it
            if case .resolving(let file, let line) = how { reportDuplicate(first: first, file: file, line: line) }
            return false
        case .deliver(let callbacks):
            if rk_load_relaxed(word) & ResponseFlags.tracked != 0 { ResponseTracking.untrack(ObjectIdentifier(self)) }
            // Moved out, not read through a copy nor bound from the action: each copy retained
            // and released what it holds (Benchmarks/README.md, "What the engine's shape saves").
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
                // A `.main` response's handler is released after its callbacks, on the main
                // queue (``MainQueueJobs/release(_:)``: the async bridge's task is freed there).
                // Copied, and the links' own reference released by `finish` before the copy is
                // sent, so the main queue's is the last. (Not moved out with
                // `rare?.cancellationHandler.take()` on the `~Copyable` links: in Swift 6.3.1 that
                // leaked the handler, and with it every task.)
                var handler: (@Sendable () -> Void)?
                if !cancelling,
                    executorKindAndLineHigh & ResponseLayout.ExecutorKind.mask == ResponseLayout.ExecutorKind.main,
                    callbacks.queuesMainQueueJob(succeeded: succeeded)
                {
                    handler = links.rare?.cancellationHandler
                }
                // Progress ends at 1 before the success callbacks (in the executor's order).
                if let channel = links.finish(cancelling: cancelling, context: &context) {
                    scheduleProgressDelivery(channel)
                }
                if let handler = handler.take() {
                    deliver(result, toEach: callbacks, thenRelease: consume handler, context: &context)
                    return true
                }
            }
            // A machine left `delivering` with no callback (it had links to finish first, above)
            // ends its delivery here, handing out the callbacks that joined meanwhile.
            if !callbacks.isEmpty || rk_load_relaxed(word) & ResponseFlags.delivered == 0 {
                deliver(result, toEach: callbacks, context: &context)
            }
            return true
        }
    }

    /// Delivers `result`, then releases `handler` on the main queue, behind the callbacks: the
    /// rare path of ``complete(outcome:result:how:context:)``, kept out of line so that the common
    /// path holds nothing across its delivery (a handler held there cost every completion a tenth
    /// more instructions in W1: Benchmarks/README.md, "Measurements behind the engine's comments").
    @usableFromInline @inline(never)
    func deliver(
        _ result: Result<Value, any Error>,
        toEach callbacks: consuming CallbackList<Value>,
        thenRelease handler: consuming @escaping @Sendable () -> Void,
        context: inout CompletionContext
    ) {
        deliver(result, toEach: callbacks, context: &context)
        MainQueueJobs.release(consume handler)
    }

    /// Delivers `result` to the callbacks registered before completion, then to any registered
    /// meanwhile, in order; then ends the delivery: without the lock when nobody joined it
    /// (``ResponseStateMachine/deliveryEndWithoutLock``), otherwise by the machine's
    /// ``ResponseStateMachine/finishDelivery(flags:)``.
    @inlinable @inline(__always)  // into the completion, its one caller: a call less per step of a chain
    func deliver(
        _ result: Result<Value, any Error>,
        toEach callbacks: consuming CallbackList<Value>,
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
            let end = ResponseStateMachine<Value>.deliveryEndWithoutLock
            if rk_set_if_unlocked_and_clear(word, end.unless, end.setting) { return }
            switch apply({ machine, flags in machine.finishDelivery(flags: flags) }) {
            case .finished:
                // Ended under the lock (always on Apple platforms, where the lock is not in the
                // word; here once a callback joined): a completion the last observer left runs in
                // the owning loop, as after the lock-free end.
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
        case .awaitingTask(let continuation, _):
            continuation.resume(with: result)
        case .cleanup(let body):
            body()
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
            MainActorDelivery.call(
                checkedMainActor(body), with: value, after: executor, from: creationSite, of: ObjectIdentifier(self))
        case .mainActorFailure(let body):
            guard case .failure(let error) = result else { return }
            MainActorDelivery.call(
                checkedMainActor(body), with: error, after: executor, from: creationSite, of: ObjectIdentifier(self))
        case .mainActorResult(let body):
            MainActorDelivery.call(
                checkedMainActor(body), with: result, after: executor, from: creationSite, of: ObjectIdentifier(self))
        case .elsewhere(let boxed):
            guard isChecked else { return boxed.deliver(result) }
            boxed.deliver(result, inScopeOf: self)
        }
    }

    /// Calls a `@Sendable` callback with `argument` where the response's callbacks run: inline, on
    /// the main queue (as a job that allocates no closure), or through the executor.
    @inlinable @inline(__always)
    func call<Argument: Sendable>(_ body: @escaping @Sendable (Argument) -> Void, with argument: Argument) {
        switch executorKindAndLineHigh & ResponseLayout.ExecutorKind.mask {
        case ResponseLayout.ExecutorKind.immediate: body(argument)
        case ResponseLayout.ExecutorKind.main:
            MainActorDelivery.callOnMainQueue(checked(body), with: argument, from: creationSite)
        default:
            let body = checked(body)
            executor.run { body(argument) }
        }
    }

    /// `body`, run in the test's scope when the response was made under the response checks: a
    /// callback that runs later, on another thread, makes responses that are the test's. Only a
    /// flag is read otherwise. (Inline callbacks need nothing: a response made during a
    /// completion belongs to the test of the response completed, ``ResponseCheckScopeTable``.)
    @inlinable @inline(__always)
    func checked<Argument>(_ body: @escaping @Sendable (Argument) -> Void) -> @Sendable (Argument) -> Void {
        isChecked ? ResponseCheckScopeTable.binding(body, toScopeOf: self) : body
    }

    /// ``checked(_:)`` for a main-actor callback.
    @inlinable @inline(__always)
    func checkedMainActor<Argument>(_ body: @escaping @MainActor (Argument) -> Void) -> @MainActor (Argument) -> Void {
        isChecked ? ResponseCheckScopeTable.bindingMainActor(body, toScopeOf: self) : body
    }

    // MARK: - Registering

    /// Registers a callback of the user's, or delivers it at once when the response is done.
    ///
    /// A callback waits for the result, so it marks the response ``ResponseFlags/observed`` (see
    /// Response+Derive.swift): cancelling a response derived from this one then leaves this one
    /// alone. Internal observers register with ``addInternalObserver(_:)`` instead (decided at the
    /// call site: a check of the callback's kind here cost a retain and a release per callback).
    @inlinable
    func addCallback(_ callback: consuming ResponseCallback<Value>) {
        addEntry(consume callback, claim: 0, marking: ResponseFlags.observed)
    }

    /// Registers the observer of a response derived from this one, and records that response's
    /// claim on this one in the same atomic operation as the unlock. A response already delivered
    /// records no claim: claims matter only while pending.
    @inlinable
    func addDerivedObserver(_ callback: consuming ResponseCallback<Value>) {
        addEntry(consume callback, claim: ResponseFlags.oneClaim, marking: 0)
    }

    /// Registers an internal observer that waits for nothing on anyone's behalf (a combinator's
    /// input, a timer to cancel): no claim, no mark; whoever it serves holds its own claim.
    @inlinable
    func addInternalObserver(_ callback: consuming ResponseCallback<Value>) {
        addEntry(consume callback, claim: 0, marking: 0)
    }

    /// Registers `callback`, adding `claim` to the claim count and setting the flags `marking` as
    /// the lock is released; a completion context is made only for an internal observer of a
    /// response that is done, to deliver through.
    @inlinable @inline(__always)
    func addEntry(_ callback: consuming ResponseCallback<Value>, claim: UInt32, marking: UInt32) {
        // Moved into the machine rather than copied (Benchmarks/README.md, "What the engine's
        // shape saves").
        var carried: ResponseCallback<Value>? = consume callback
        guard let result = storeOrReadResult(&carried, claim: claim, marking: marking) else { return }
        switch carried.take().unsafelyUnwrapped {
        case .observer(let body):
            var context = CompletionContext()
            body(result, &context)
            context.runDeferred()
        case let other:
            deliver(result, toOtherThanObserver: other)
        }
    }

    /// Registers an internal observer inside a completion under way: a done response delivers
    /// through that completion's context, so chains of done responses stay flat too.
    @inlinable
    func addObserverDuringCompletion(_ callback: consuming ResponseCallback<Value>, context: inout CompletionContext) {
        var carried: ResponseCallback<Value>? = consume callback
        guard let result = storeOrReadResult(&carried, claim: 0, marking: 0) else { return }
        deliver(result, to: carried.take().unsafelyUnwrapped, context: &context)
    }

    /// Takes the callback out of `callback` and stores it, adding `claim` to the claim count and
    /// setting `marking` as the lock is released; or, when the response is done, leaves it there
    /// and returns the result for the caller to deliver it.
    @inlinable @inline(__always)
    func storeOrReadResult(
        _ callback: inout ResponseCallback<Value>?,
        claim: UInt32,
        marking: UInt32
    ) -> Result<Value, any Error>? {
        let observesFailure = callback.unsafelyUnwrapped.observesFailure
        if let result = deliveredResult {
            if observesFailure { markFailureObserved() }
            return result
        }
        let marking = observesFailure ? marking | ResponseFlags.failureObserved : marking
        // Consumed on every path: a payload-free action then costs no outlined destroy.
        switch apply(
            addingOnUnlock: claim, { machine, flags in machine.register(&callback, marking: marking, flags: flags) })
        {
        case .deliverNow(let result): return result
        case .stored, .queuedBehindDelivery: return nil
        }
    }

    /// Registers a blocking wait, with its claim; `false` (nothing registered) when the response
    /// is delivered. The wait gives the claim back when it gives up (``removeWaiter(_:)``).
    @inlinable
    func addWaiter(_ waiter: any ResponseWaiter) -> Bool {
        addClaimingEntry(.waiter(waiter)) == nil
    }

    /// Registers `entry`, someone who waits for the response (a blocking wait, an awaiting task),
    /// with its claim, added as the lock is released (so whoever takes the entry out later finds
    /// the claim there). Returns `nil`, or the result when the response is already delivered
    /// (nothing registered: the caller wakes the entry).
    @inlinable
    func addClaimingEntry(_ entry: ResponseCallback<Value>) -> Result<Value, any Error>? {
        var callback: ResponseCallback<Value>? = entry
        let action = apply(addingOnUnlock: ResponseFlags.oneClaim) { machine, flags in
            machine.register(&callback, marking: 0, flags: flags)
        }
        if case .deliverNow(let result) = action { return result }
        return nil
    }

    /// Removes a waiter that gave up; `false` when the response already woke it.
    @inlinable
    func removeWaiter(_ waiter: any ResponseWaiter) -> Bool {
        apply { machine, flags in
            ResponseTransition(machine.removeCallback(where: { $0.isWaiter(waiter) }, flags: flags))
        } != nil
    }

    /// Registers a task suspended in ``get()``, to be resumed with the result on completion, with
    /// its claim. Returns `nil`, or the result when the response is already delivered (nothing
    /// registered: the caller resumes the task).
    @inlinable
    func addAwaitingTask(
        _ continuation: UnsafeContinuation<Value, any Error>,
        identity: UInt64
    ) -> Result<Value, any Error>? {
        addClaimingEntry(.awaitingTask(continuation, identity: identity))
    }

    /// Takes a cancelled awaiting task off the response: its continuation, now the caller's to
    /// resume, or `nil` when the completion took it first (and resumes it).
    @inlinable
    func removeAwaitingTask(_ identity: UInt64) -> UnsafeContinuation<Value, any Error>? {
        let removed = apply { machine, flags in
            ResponseTransition(machine.removeCallback(where: { $0.isAwaitingTask(identity) }, flags: flags))
        }
        guard case .awaitingTask(let continuation, _) = removed else { return nil }
        return continuation
    }

    // MARK: - Links

    /// Records `upstream` as a response this one holds a claim on; `false` (nothing recorded)
    /// when this response is already done.
    @inlinable
    func addUpstream(_ upstream: any AnyResponse) -> Bool {
        apply { machine, _ in ResponseTransition(machine.addUpstream(upstream)) }
    }

    /// Stores a cancellation handler, or runs it now when the response is already cancelled. A
    /// handler given to a response that finished otherwise never runs.
    @inlinable
    func addCancellationHandler(_ handler: @escaping @Sendable () -> Void) {
        let action = apply { machine, flags in
            ResponseTransition(machine.addCancellationHandler(handler, flags: flags))
        }
        if case .runNow = action { handler() }
    }
}
