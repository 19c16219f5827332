/// A response's life as a state machine: pending with its callbacks, then delivering its result to
/// them, then done.
///
/// Every transition is a `mutating` method that returns what the caller must do next (an
/// *action*); the caller runs it after releasing the lock, so no user code and no other response
/// ever runs under a response's lock. Only ``ResponseStorage`` calls these methods, with the lock
/// held (see `Response.withLock`).
@usableFromInline
struct ResponseStateMachine<Value: Sendable> {
    @usableFromInline
    enum State {
        /// Waiting for a result; the callbacks in registration order.
        case pending(CallbackList<Value>)
        /// Has its result, and the completing thread is running the callbacks registered before.
        /// A callback registered now joins ``ResponseExtras/late`` and that thread runs it after
        /// the earlier ones, so registration order holds even in that window. When no callback
        /// joined, the completing thread ends the delivery with the `delivered` flag alone, without
        /// the lock, and this state is then as final as `done` (the transitions are told so).
        case delivering(ResponseOutcome)
        /// Has its result and has handed it to every callback: final. Once the `delivered` flag
        /// says so, readers take the result without the lock (see `Response.deliveredResult`).
        case done(ResponseOutcome)
    }

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
    /// - Parameter deliveryFinished: whether the `delivered` flag is set, which a delivery that
    ///   nobody joined sets without leaving `delivering` (see ``State/delivering(_:)``).
    @inlinable @inline(__always)
    mutating func register(_ callback: inout ResponseCallback<Value>?, deliveryFinished: Bool) -> RegisterAction {
        switch state {
        case .pending(var callbacks):
            state = .pending(.empty)  // drop our reference so the append does not copy
            callbacks.append(callback.take().unsafelyUnwrapped)
            state = .pending(callbacks)
            return .stored
        case .delivering(let outcome):
            if deliveryFinished { return .deliverNow(outcome.result(as: Value.self)) }
            makeLateCallbacks().list.append(callback.take().unsafelyUnwrapped)
            return .queuedBehindDelivery
        case .done(let outcome):
            return .deliverNow(outcome.result(as: Value.self))
        }
    }

    /// Removes a waiter that gave up; `false` when it was already woken.
    @inlinable
    mutating func remove(_ waiter: any ResponseWaiter) -> Bool {
        switch state {
        case .pending(var callbacks):
            state = .pending(.empty)
            let removed = callbacks.remove(waiter)
            state = .pending(callbacks)
            return removed
        case .delivering:
            return lateCallbacks?.list.remove(waiter) ?? false
        case .done:
            return false
        }
    }

    // MARK: - Completing

    @usableFromInline
    enum CompleteAction {
        /// This result won: finish the links (run cancellation handlers, release claims), then
        /// deliver it to `callbacks`. With no callbacks the response is `done` at once.
        case deliver(CallbackList<Value>)
        /// The response already had a result, which stands.
        case alreadyCompleted(first: Result<Value, any Error>)
    }

    /// - Parameters:
    ///   - outcome: the result, owned by the caller until this returns `deliver`; then the machine
    ///     owns it. On `alreadyCompleted` the caller still owns it and must destroy it.
    ///   - succeeded: whether `outcome` is a success.
    ///   - links: set, when the result won, to what the completion must finish outside the lock
    ///     (handed out apart from the action, so that it moves rather than being copied out of it).
    @inlinable @inline(__always)
    mutating func complete(
        with outcome: ResponseOutcome,
        succeeded: Bool,
        links: inout ResponseFinishedLinks
    ) -> CompleteAction {
        // A machine with a result is never written again (lock-free readers rely on it).
        switch state {
        case .pending: break
        case .delivering(let first), .done(let first): return .alreadyCompleted(first: first.result(as: Value.self))
        }
        // Swapped out rather than switched over, so the callbacks move instead of being copied.
        var previous = State.delivering(outcome)
        swap(&state, &previous)
        switch consume previous {
        case .pending(let callbacks):
            // Nothing to deliver: final at once, so that the completion takes the lock only once.
            if callbacks.isEmpty { state = .done(outcome) }
            guard let extras = Self.extras(in: link) else {
                guard let only = link.take() else { return .deliver(callbacks) }
                // The upstream, moved out: the machine's reference becomes the caller's.
                links = .upstream(Unmanaged.passRetained(consume only))
                return .deliver(callbacks)
            }
            var finished = ResponseLinks(extras: extras)
            if succeeded {
                finished.finalProgress = extras.progress?.finish(succeeded: true)
            } else {
                _ = extras.progress?.finish(succeeded: false)
            }
            // Kept for what outlives the result: the executor, the progress `Response.progress`
            // still reads.
            if !extras.shedLinks() { link = nil }
            links = .links(finished)
            return .deliver(callbacks)
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

    /// Called by the completing thread after it delivered a batch.
    @inlinable
    mutating func finishDelivery() -> DeliveryAction {
        guard case .delivering(let outcome) = state else {
            preconditionFailure("ResponseKit: a delivery finished on a response that was not delivering")
        }
        if let late = lateCallbacks, !late.list.isEmpty {
            let list = late.list
            late.list = .empty
            return .deliverLate(list)
        }
        state = .done(outcome)  // the slot's bits move: the machine still owns the value once
        return .finished
    }

    // MARK: - Links

    /// Records `upstream` as a response this one holds a claim on; `false` (nothing recorded)
    /// when this response already has its result.
    @inlinable
    mutating func addUpstream(_ upstream: any ClaimHolder) -> Bool {
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

    @inlinable
    mutating func addCancellationHandler(
        _ handler: @escaping @Sendable () -> Void,
        isCancelled: Bool
    ) -> CancellationHandlerAction {
        guard case .pending = state else { return isCancelled ? .runNow : .discard }
        makeExtras().cancellationHandlers.append(handler)
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

/// The rarely used part of a response's state, allocated on first use, or at creation for a
/// response whose executor is a queue or the caller's own.
///
/// Only reached through ``ResponseStateMachine``, under the response's lock, or after completion
/// handed it to the completing thread alone (``ResponseLinks``): never shared between threads
/// without the lock.
@usableFromInline
final class ResponseExtras {
    /// Where callbacks run, when that is not the main queue or inline (which the response's own
    /// bits say, without an allocation).
    @usableFromInline let executor: ResponseExecutor?
    /// The first response this one holds a claim on, once the extras exist.
    @usableFromInline var upstream: ResponseUpstream?
    /// The work's handlers for ``Response/cancel()``.
    @usableFromInline var cancellationHandlers: [@Sendable () -> Void] = []
    /// Claims beyond the first (a combinator waits on many responses).
    @usableFromInline var upstreams: [any ClaimHolder] = []
    /// Callbacks registered while the completing thread delivered: a ``ResponseLateCallbacks``
    /// of the response's value type (kept apart, so that this class is not generic and telling it
    /// from an upstream is one comparison).
    @usableFromInline var late: AnyObject?
    /// The work's progress, once reported or observed (see `Response+Progress.swift`).
    @usableFromInline var progress: ProgressChannel?

    @inlinable
    init(executor: ResponseExecutor?) {
        self.executor = executor
    }

    /// Empties what a finished response no longer needs; `true` when something remains that
    /// outlives the result (the executor, the progress), so that the response keeps the extras.
    @inlinable
    func shedLinks() -> Bool {
        upstream = nil
        cancellationHandlers = []
        upstreams = []
        return executor != nil || progress != nil
    }
}

/// Callbacks registered while a response's completing thread delivered, which that thread runs
/// after the earlier ones (see ``ResponseStateMachine/State/delivering(_:)``).
@usableFromInline
final class ResponseLateCallbacks<Value: Sendable> {
    @usableFromInline var list: CallbackList<Value> = .empty

    @inlinable
    init() {}
}

/// What a completion hands out of the lock to finish outside it, consumed on every path (an
/// optional left `nil` still cost an outlined destroy per completion).
@usableFromInline
enum ResponseFinishedLinks {
    /// Nothing was linked.
    case none
    /// The one response this one held a claim on (a step of a chain), as the machine's reference,
    /// now the caller's to release. Unmanaged so that no copy of it costs a retain and a release
    /// on the way (measured: one of each per step).
    case upstream(Unmanaged<AnyObject>)
    /// The extras' links.
    case links(ResponseLinks)
}

/// What a completed response with extras must finish outside its lock: run its cancellation
/// handlers (when it was cancelled) and release its claims. (A step of a chain, whose only link is
/// its upstream, hands that out alone: ``ResponseFinishedLinks/upstream(_:)``.)
///
/// Small on purpose: copying arrays (even empty ones) costs a retain and a release each, so the
/// rarely used parts travel as one optional.
@usableFromInline
struct ResponseLinks {
    /// The cancellation handlers and the claims beyond the first, when there are any.
    @usableFromInline
    struct Rare {
        @usableFromInline let cancellationHandlers: [@Sendable () -> Void]
        @usableFromInline let upstreams: [any ClaimHolder]

        @inlinable
        init(cancellationHandlers: [@Sendable () -> Void], upstreams: [any ClaimHolder]) {
            self.cancellationHandlers = cancellationHandlers
            self.upstreams = upstreams
        }
    }

    @usableFromInline let upstream: ResponseUpstream?
    @usableFromInline let rare: Rare?
    /// The progress channel whose final delivery (1 on success) the completion must schedule.
    @usableFromInline var finalProgress: ProgressChannel?

    /// Takes what `extras` link to (the caller sheds them afterwards).
    @inlinable
    init(extras: ResponseExtras) {
        upstream = extras.upstream
        if !extras.cancellationHandlers.isEmpty || !extras.upstreams.isEmpty {
            rare = Rare(cancellationHandlers: extras.cancellationHandlers, upstreams: extras.upstreams)
        } else {
            rare = nil
        }
    }

    /// Tells the work it was cancelled (when it was), then releases every claim. A release that
    /// cancels an upstream does so inside `context`, so a long chain cancelled from its end
    /// stays flat.
    ///
    /// - Returns: the progress channel whose final delivery the completion must schedule.
    @inlinable
    consuming func finish(cancelling: Bool, context: inout CompletionContext) -> ProgressChannel? {
        if let rare {
            if cancelling {
                for handler in rare.cancellationHandlers { handler() }
            }
            upstream?.releaseClaim(context: &context)
            for upstream in rare.upstreams { upstream.releaseClaim(context: &context) }
        } else {
            upstream?.releaseClaim(context: &context)
        }
        return finalProgress
    }
}

/// Something a derived response holds a claim on: a ``Response`` of any value type.
@usableFromInline
protocol ClaimHolder: AnyObject, Sendable {
    /// Records that one more derived response, task or blocking read waits for this response.
    func addClaim()
    /// Gives up one claim; cancels the response when it was the last one, no callback waits for it
    /// and the response is pending.
    func releaseClaim()
    /// ``releaseClaim()`` inside a completion under way, which a resulting cancellation joins.
    func releaseClaim(context: inout CompletionContext)
    /// Cancels the response after its last claim went away (it was pending then).
    func cancelAfterLastClaim(context: inout CompletionContext)
}
