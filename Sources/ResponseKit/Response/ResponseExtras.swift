/// The rarely used part of a response's state, allocated on first use, or at creation for a
/// response whose executor is a queue or the caller's own.
///
/// Only reached through ``ResponseStateMachine``, under the response's lock, or after completion
/// handed it to the completing thread alone (``ResponseLinks``): never shared between threads
/// without the lock.
///
/// Its variables go without Swift's run-time exclusivity checks, which cost a thread-local lookup
/// and an access-set entry per access: W9's completion made five of them, a large share of the
/// async bridge's instructions (Benchmarks/README.md). No two accesses can overlap: every access
/// happens under the response's lock (or on the one thread a completion handed the extras to),
/// and the only code that can run during one is a deinit released by an assignment, which
/// cannot reach these variables without that same lock (taking it there would deadlock first).
@usableFromInline
final class ResponseExtras {
    /// Where callbacks run, when that is not the main queue or inline (which the response's own
    /// bits say, without an allocation).
    @usableFromInline let executor: ResponseExecutor?
    /// The first response this one holds a claim on, once the extras exist.
    @usableFromInline @exclusivity(unchecked) var upstream: ResponseUpstream?
    /// The work's first handler for ``Response/cancel()``: most work registers one (the async
    /// bridge's task, a wrapped call's handle), which then costs no array.
    @usableFromInline @exclusivity(unchecked) var cancellationHandler: (@Sendable () -> Void)?
    /// The work's handlers for ``Response/cancel()`` after the first, in registration order.
    @usableFromInline @exclusivity(unchecked) var cancellationHandlers: [@Sendable () -> Void] = []
    /// Claims beyond the first (a combinator waits on many responses).
    @usableFromInline @exclusivity(unchecked) var upstreams: [any AnyResponse] = []
    /// Callbacks registered while the completing thread delivered: a ``ResponseLateCallbacks``
    /// of the response's value type (kept apart, so that this class is not generic and telling it
    /// from an upstream is one comparison).
    @usableFromInline @exclusivity(unchecked) var late: AnyObject?
    /// The work's progress, once reported or observed (see `Response+Progress.swift`).
    @usableFromInline @exclusivity(unchecked) var progress: ProgressChannel?

    @inlinable
    init(executor: ResponseExecutor?) {
        self.executor = executor
    }

    /// Whether something outlives the result (the executor, the progress), so that a finished
    /// response keeps the extras after ``ResponseLinks/init(takingFrom:)`` emptied their links.
    @inlinable
    var outlivesResult: Bool {
        executor != nil || progress != nil
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
enum ResponseFinishedLinks: ~Copyable {
    /// Nothing was linked.
    case none
    /// The one response this one held a claim on (a step of a chain), as the machine's reference,
    /// now the caller's to release. Unmanaged so that no copy of it costs a retain and a release
    /// on the way (Benchmarks/README.md, "What the engine's shape saves").
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
struct ResponseLinks: ~Copyable {
    /// The cancellation handlers and the claims beyond the first, when there are any.
    @usableFromInline
    struct RareLinks {
        @usableFromInline let cancellationHandler: (@Sendable () -> Void)?
        @usableFromInline let cancellationHandlers: [@Sendable () -> Void]
        @usableFromInline let upstreams: [any AnyResponse]

        /// Moves the links out of `extras`, leaving them empty.
        @inlinable
        init(takingFrom extras: ResponseExtras) {
            cancellationHandler = extras.cancellationHandler.take()
            var handlers: [@Sendable () -> Void] = []
            swap(&handlers, &extras.cancellationHandlers)
            cancellationHandlers = handlers
            var claims: [any AnyResponse] = []
            swap(&claims, &extras.upstreams)
            upstreams = claims
        }
    }

    @usableFromInline var upstream: ResponseUpstream?
    @usableFromInline var rare: RareLinks?
    /// The progress channel whose final delivery (1 on success) the completion must schedule.
    @usableFromInline var finalProgress: ProgressChannel?

    /// Moves what `extras` link to out of them, leaving them empty: moved rather than copied,
    /// since a copy retained every handler and array, and emptying the extras released them again
    /// (three retains and three releases per completion of the async bridge, W9).
    @inlinable
    init(takingFrom extras: ResponseExtras) {
        upstream = extras.upstream.take()
        if extras.cancellationHandler != nil || !extras.upstreams.isEmpty {
            rare = RareLinks(takingFrom: extras)
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
        // Taken out, not bound: binding copied the optional, a retain and a release of each part.
        if let rare = rare.take() {
            if cancelling {
                rare.cancellationHandler?()
                for handler in rare.cancellationHandlers { handler() }
            }
            upstream.take()?.releaseClaim(context: &context)
            for upstream in rare.upstreams { upstream.releaseClaim(context: &context) }
        } else {
            upstream.take()?.releaseClaim(context: &context)
        }
        return finalProgress
    }
}
