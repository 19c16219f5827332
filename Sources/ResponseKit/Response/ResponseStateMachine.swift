/// A response's life as a state machine: pending with its callbacks, then delivering its result to
/// them, then delivered.
///
/// Every transition is a `mutating` method that returns a ``Transition``: what the storage must do
/// next (an *action*) and every flag of the state word the transition sets, which the storage sets
/// in the same atomic operation that releases the lock. The storage (ResponseStorage.swift) calls
/// them with the lock held and the flags it read under it, and runs the action after releasing
/// the lock, so no user code and no other response ever runs under a response's lock.
@usableFromInline
struct ResponseStateMachine<Value: Sendable> {
    @usableFromInline
    enum State {
        /// Waiting for a result; the callbacks in registration order.
        case pending(CallbackList<Value>)
        /// Has its result, and the completing thread is running the callbacks registered before.
        /// A callback registered now joins ``ResponseExtras/late`` and that thread runs it after
        /// the earlier ones, so registration order holds even in that window.
        ///
        /// With the `delivered` flag set, this is the **delivered** phase, as final as `done`:
        /// a delivery that nobody joined ends without the lock (``deliveryEndWithoutLock``), so
        /// the enum keeps this case. Every transition is given the flags and names that phase
        /// itself (`where` clauses below).
        case delivering(ResponseOutcome)
        /// Has its result and has handed it to every callback: final, never written again. The
        /// `delivered` flag is set with it.
        case done(ResponseOutcome)
    }

    /// What a transition decided (the action and the flags it sets).
    @usableFromInline typealias Transition<Action> = ResponseTransition<Action>

    // The order of these two is part of the response's layout: the link word first, then the
    // state, whose tag byte ends the machine at 25 bytes, so that the response's small fields fill
    // the rest of its last word (see `ResponseLayout`).

    /// What the response is tied to besides its callbacks, in one word: nothing, the one response
    /// it holds a claim on (a step of a chain), or its ``ResponseExtras``, told apart by class.
    ///
    /// A plain reference rather than an enum of two references: such an enum keeps its tag in
    /// the pointer's high bits, where a leak checker no longer sees a pointer (LeakSanitizer
    /// reported the extras of responses alive at exit as leaked).
    @usableFromInline var link: AnyObject?
    @usableFromInline var state: State

    @inlinable
    init(state: State, link: AnyObject?) {
        self.link = link
        self.state = state
    }

    /// The rarely used part, when it was needed.
    @inlinable
    var extras: ResponseExtras? { Self.extras(in: link) }

    /// `link` as extras, when it holds them. Told apart by comparing classes (`ResponseExtras` is
    /// final): one runtime call that neither casts nor retains, on every completion of a chain.
    @inlinable @inline(__always)
    static func extras(in link: AnyObject?) -> ResponseExtras? {
        guard let link, ObjectIdentifier(type(of: link)) == ObjectIdentifier(ResponseExtras.self) else { return nil }
        return unsafeDowncast(link, to: ResponseExtras.self)
    }

    /// A copy of the result, if there is one.
    @inlinable
    var result: Result<Value, any Error>? {
        switch state {
        case .pending: nil
        case .delivering(let outcome), .done(let outcome): outcome.result(as: Value.self)
        }
    }

    /// The outcome's success value, for the response's deinit to destroy: the compiler destroys
    /// everything else in the machine (see ``ResponseOutcome``).
    @inlinable @inline(__always)  // inlined, the deinit needs no metadata to read it
    var successValue: ResponseValueSlot? {
        switch state {
        case .pending, .delivering(.failure), .done(.failure): nil
        case .delivering(.success(let slot)), .done(.success(let slot)): slot
        }
    }

    /// How many callbacks wait for the result (tests look at it to prove nothing is left behind).
    var waitingCallbackCount: Int {
        let list: CallbackList<Value>
        switch state {
        case .pending(let callbacks): list = callbacks
        case .delivering: list = lateCallbacks?.list ?? .empty
        case .done: return 0
        }
        switch list {
        case .empty: return 0
        case .one: return 1
        case .many(let callbacks): return callbacks.count
        }
    }

    // MARK: - Registering callbacks

    @usableFromInline
    enum RegisterAction {
        /// Stored: it runs when the response completes.
        case stored
        /// Queued behind the delivery under way: the completing thread runs it.
        case queuedBehindDelivery
        /// The response is done: deliver it now, on the caller's thread (the callback was left
        /// where it was).
        case deliverNow(Result<Value, any Error>)
    }

    /// Takes the callback out of `callback` when it stores it; leaves it there when the response
    /// is done, for the caller to deliver. (Moved through an optional rather than passed and
    /// handed back: the action stays small, and nothing is retained twice.)
    ///
    /// - Parameters:
    ///   - marking: the flags the registration sets (`observed` for a user's callback,
    ///     `failureObserved` for one that observes a failure); a callback queued behind a
    ///     delivery also sets `lateCallbacks`, which stops that delivery from ending without the
    ///     lock, so that it finds the callback.
    ///   - flags: the state word's flags, read under the lock.
    @inlinable @inline(__always)
    mutating func register(
        _ callback: inout ResponseCallback<Value>?,
        marking: UInt32,
        flags: UInt32
    ) -> Transition<RegisterAction> {
        switch state {
        case .pending(var callbacks):
            state = .pending(.empty)  // drop our reference so the append does not copy
            callbacks.append(callback.take().unsafelyUnwrapped)
            state = .pending(callbacks)
            return Transition(.stored, flags: marking)
        case .delivering where flags & ResponseFlags.delivered == 0:
            makeLateCallbacks().list.append(callback.take().unsafelyUnwrapped)
            return Transition(.queuedBehindDelivery, flags: marking | ResponseFlags.lateCallbacks)
        case .delivering(let outcome), .done(let outcome):  // delivered
            return Transition(.deliverNow(outcome.result(as: Value.self)), flags: marking)
        }
    }

    /// Removes the first callback not yet delivered that `matches` (a waiter that gave up, a
    /// cancelled awaiting task), and returns it; `nil` when it was already delivered.
    @inlinable
    mutating func removeCallback(
        where matches: (ResponseCallback<Value>) -> Bool, flags: UInt32
    ) -> ResponseCallback<Value>? {
        switch state {
        case .pending(var callbacks):
            state = .pending(.empty)
            let removed = callbacks.removeFirst(where: matches)
            state = .pending(callbacks)
            return removed
        case .delivering:
            // Delivered: every late callback was handed out, and the machine is not written again.
            guard flags & ResponseFlags.delivered == 0 else { return nil }
            return lateCallbacks?.list.removeFirst(where: matches)
        case .done:
            return nil
        }
    }

    // MARK: - Completing

    @usableFromInline
    enum CompleteAction {
        /// This result won: finish the links (run cancellation handlers, release claims), then
        /// deliver it to `callbacks`. With no callbacks and no links the response is `done` at
        /// once; with links, the delivery ends once they are finished.
        case deliver(CallbackList<Value>)
        /// The response already had a result, which stands.
        case alreadyCompleted(first: Result<Value, any Error>)
    }

    /// - Parameters:
    ///   - outcome: the result, owned by the caller until this returns `deliver`; then the machine
    ///     owns it. On `alreadyCompleted` the caller still owns it and must destroy it.
    ///   - succeeded: whether `outcome` is a success.
    ///   - cause: `cancelled` for ``Response/cancel()``, `abandoned` for a released resolver, or 0.
    ///   - links: set, when the result won, to what the completion must finish outside the lock
    ///     (handed out apart from the action, so that it moves rather than being copied out of it).
    /// - Returns: `done`, `failed`, the cause, and `delivered` when no callback waits (the machine
    ///   is then final at once, so that the completion takes the lock only once) or
    ///   `failureObserved` when a waiting callback observes the failure.
    @inlinable @inline(__always)
    mutating func complete(
        with outcome: ResponseOutcome,
        succeeded: Bool,
        cause: UInt32,
        links: inout ResponseFinishedLinks
    ) -> Transition<CompleteAction> {
        // A machine with a result is never written again (lock-free readers rely on it).
        switch state {
        case .pending: break
        case .delivering(let first), .done(let first):
            return Transition(.alreadyCompleted(first: first.result(as: Value.self)))
        }
        var flags = ResponseFlags.done | cause
        if !succeeded { flags |= ResponseFlags.failed }
        // Swapped out rather than switched over, so the callbacks move instead of being copied.
        var previous = State.delivering(outcome)
        swap(&state, &previous)
        switch consume previous {
        case .pending(let callbacks):
            if callbacks.isEmpty, link == nil {
                // Nothing to finish and nobody to tell: final at once. With links to finish
                // (cancellation handlers, claims) the machine stays `delivering` until they are:
                // a callback registered meanwhile joins the delivery and runs after them, never
                // before (issue 37).
                state = .done(outcome)
                flags |= ResponseFlags.delivered
            } else if !succeeded, callbacks.observesFailure {  // the flag only matters for a failure
                flags |= ResponseFlags.failureObserved
            }
            guard let extras = Self.extras(in: link) else {
                guard let only = link.take() else { return Transition(.deliver(callbacks), flags: flags) }
                // The upstream, moved out: the machine's reference becomes the caller's.
                links = .upstream(Unmanaged.passRetained(consume only))
                return Transition(.deliver(callbacks), flags: flags)
            }
            var finished = ResponseLinks(takingFrom: extras)
            if succeeded {
                finished.finalProgress = extras.progress?.finish(succeeded: true)
            } else {
                _ = extras.progress?.finish(succeeded: false)
            }
            // Kept for what outlives the result: the executor, the progress `Response.progress`
            // still reads.
            if !extras.outlivesResult { link = nil }
            links = .links(finished)
            return Transition(.deliver(callbacks), flags: flags)
        case .delivering, .done:
            preconditionFailure("ResponseKit: a response with a result was completed again")
        }
    }

    @usableFromInline
    enum DeliveryAction {
        /// Callbacks were registered during the delivery: deliver these too, then ask again.
        case deliverLate(CallbackList<Value>)
        /// Every callback has its result: the response is done.
        case finished
    }

    /// The end of a delivery that nobody joined, decided without the lock: the completing thread
    /// sets `setting` with one compare-and-swap that succeeds only while nobody holds the lock and
    /// none of `unless` is set (`rk_set_if_unlocked_and_clear`): no callback joined, so there is
    /// nothing for ``finishDelivery(flags:)`` to do but write `done`. The state stays
    /// `delivering`, which the flag makes the delivered phase.
    ///
    /// Why not always under the lock: taking it once more per completion is the cost of a step
    /// of a chain that the speed targets cannot afford (Benchmarks/README.md, "What the engine's shape saves").
    @inlinable
    static var deliveryEndWithoutLock: (unless: UInt32, setting: UInt32) {
        (ResponseFlags.lateCallbacks, ResponseFlags.delivered)
    }

    /// Called by the completing thread after it delivered a batch, when the delivery could not
    /// end without the lock (``deliveryEndWithoutLock``): hands out the callbacks that joined
    /// meanwhile, or makes the response `done`, setting `delivered`.
    ///
    /// - Parameter flags: the state word's flags, read under the lock: `lateCallbacks` says
    ///   whether any callback ever joined a delivery, so that the common case does not look for
    ///   the extras.
    @inlinable @inline(__always)
    mutating func finishDelivery(flags: UInt32) -> Transition<DeliveryAction> {
        guard case .delivering(let outcome) = state else {
            preconditionFailure("ResponseKit: a delivery finished on a response that was not delivering")
        }
        // Only the completing thread finishes a delivery, after the lock-free end failed, so the
        // flag is not set here; were it set, the machine is final and must not be written.
        guard flags & ResponseFlags.delivered == 0 else { return Transition(.finished) }
        if flags & ResponseFlags.lateCallbacks != 0, let late = lateCallbacks, !late.list.isEmpty {
            let list = late.list
            late.list = .empty
            return Transition(.deliverLate(list), flags: list.observesFailure ? ResponseFlags.failureObserved : 0)
        }
        state = .done(outcome)  // the slot's bits move: the machine still owns the value once
        return Transition(.finished, flags: ResponseFlags.delivered)
    }

    // MARK: - Links

    /// Records `upstream` as a response this one holds a claim on; `false` (nothing recorded)
    /// when this response already has its result.
    @inlinable
    mutating func addUpstream(_ upstream: any AnyResponse) -> Bool {
        guard case .pending = state else { return false }
        if link == nil {
            link = upstream
        } else if let extras {
            if extras.upstream == nil {
                extras.upstream = ResponseUpstream(upstream)
            } else {
                extras.upstreams.append(upstream)
            }
        } else {
            makeExtras().upstreams.append(upstream)
        }
        return true
    }

    /// Records the first upstream of a response that nobody else can see yet (composition).
    @inlinable
    mutating func setUpstreamBeforeSharing(_ upstream: ResponseUpstream) {
        if let extras {
            extras.upstream = upstream
        } else {
            link = upstream.response
        }
    }

    @usableFromInline
    enum CancellationHandlerAction {
        case stored
        /// The response is cancelled already: run the handler now.
        case runNow
        /// The response finished some other way: the handler never runs.
        case discard
    }

    /// - Parameter flags: the state word's flags, read under the lock: `cancelled` tells a
    ///   cancellation from another ending.
    @inlinable
    mutating func addCancellationHandler(
        _ handler: @escaping @Sendable () -> Void,
        flags: UInt32
    ) -> CancellationHandlerAction {
        guard case .pending = state else { return flags & ResponseFlags.cancelled != 0 ? .runNow : .discard }
        let extras = makeExtras()
        if extras.cancellationHandler == nil {
            extras.cancellationHandler = handler
        } else {
            extras.cancellationHandlers.append(handler)
        }
        return .stored
    }

    /// The extras, made on first use; an upstream recorded in the link moves into them.
    @inlinable
    mutating func makeExtras() -> ResponseExtras {
        if let extras { return extras }
        let made = ResponseExtras(executor: nil)
        if let upstream = link { made.upstream = ResponseUpstream(unchecked: upstream) }
        link = made
        return made
    }

    /// The callbacks registered during the delivery under way, once there were any.
    @inlinable
    var lateCallbacks: ResponseLateCallbacks<Value>? {
        // Only this machine stores them, with its own value type: the downcast holds.
        guard let late = extras?.late else { return nil }
        return unsafeDowncast(late, to: ResponseLateCallbacks<Value>.self)
    }

    @inlinable
    mutating func makeLateCallbacks() -> ResponseLateCallbacks<Value> {
        if let lateCallbacks { return lateCallbacks }
        let made = ResponseLateCallbacks<Value>()
        makeExtras().late = made
        return made
    }

    /// The executor of a response whose callbacks run neither on the main queue nor inline: its
    /// extras hold it from the start to the end.
    @inlinable
    var elsewhereExecutor: ResponseExecutor {
        guard let executor = extras?.executor else {
            preconditionFailure("ResponseKit: a response's executor was lost")
        }
        return executor
    }
}
