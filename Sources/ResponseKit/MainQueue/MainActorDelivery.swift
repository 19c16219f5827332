import Dispatch

/// A callback's delivery as a main-queue job: the callback and its argument, run together.
///
/// Kept as a value rather than a closure capturing both: a closure's context is an allocation per
/// delivery, while a callback (two words) and a one-word argument fit an existential's inline
/// buffer, so most deliveries to the main queue allocate nothing of their own.
@usableFromInline
protocol MainQueueCall: Sendable {
    @MainActor func run()
}

/// A main-actor callback and its argument.
@usableFromInline
struct MainActorCall<Argument: Sendable>: MainQueueCall {
    @usableFromInline let body: @MainActor (Argument) -> Void
    @usableFromInline let argument: Argument

    @inlinable
    init(body: @escaping @MainActor (Argument) -> Void, argument: Argument) {
        self.body = body
        self.argument = argument
    }

    @inlinable @MainActor
    func run() { body(argument) }
}

/// A `@Sendable` callback of a `.main` response and its argument.
@usableFromInline
struct SendableCall<Argument: Sendable>: MainQueueCall {
    @usableFromInline let body: @Sendable (Argument) -> Void
    @usableFromInline let argument: Argument

    @inlinable
    init(body: @escaping @Sendable (Argument) -> Void, argument: Argument) {
        self.body = body
        self.argument = argument
    }

    @inlinable @MainActor
    func run() { body(argument) }
}

/// Runs main-actor callbacks on the main actor.
@usableFromInline
enum MainActorDelivery {
    /// Calls `body` with `argument` on the main actor, after the response's executor has had its
    /// turn, as ``run(after:_:)`` does; on the main queue without allocating a closure.
    ///
    /// `response` keeps the response's main-actor callbacks in order when some are hopped to the
    /// main queue and a later one would run inline there (``run(after:from:of:_:)``).
    @inlinable
    static func call<Argument: Sendable>(
        _ body: @escaping @MainActor (Argument) -> Void,
        with argument: Argument,
        after executor: ResponseExecutor,
        from site: CreationSite,
        of response: ObjectIdentifier
    ) {
        if case .main = executor.kind {
            MainQueueJobs.enqueue(.call(MainActorCall(body: body, argument: argument)), from: site)
        } else {
            run(after: executor, from: site, of: response) { body(argument) }
        }
    }

    /// Calls a `.main` response's `@Sendable` callback with `argument` on the main queue, without
    /// allocating a closure.
    @inlinable
    static func callOnMainQueue<Argument: Sendable>(
        _ body: @escaping @Sendable (Argument) -> Void,
        with argument: Argument,
        from site: CreationSite
    ) {
        MainQueueJobs.enqueue(.call(SendableCall(body: body, argument: argument)), from: site)
    }

    /// Runs `job` on the main actor, after the response's executor has had its turn: a `.main`
    /// response's jobs go through ``MainQueueJobs`` (in order with its other callbacks); for other
    /// executors the job goes through the executor first (a test's `ManualExecutor` still decides
    /// when), then runs inline if that is the main queue, or hops there.
    ///
    /// - Parameter response: the response whose callback `job` runs, when callbacks registered
    ///   on it must keep their order: an earlier one hopped to the main queue (the response
    ///   finished on another thread) and not started yet is not overtaken by one that would run
    ///   inline (registered on the main queue once the response was done); that one queues
    ///   behind it. Found by the random-program checker.
    @usableFromInline
    static func run(
        after executor: ResponseExecutor,
        from site: CreationSite = .unknown,
        of response: ObjectIdentifier? = nil,
        _ job: @escaping @MainActor @Sendable () -> Void
    ) {
        switch executor.kind {
        case .main:
            MainQueueJobs.enqueue(.mainActor(job), from: site)
        case .immediate:
            runHere(job, from: site, of: response)
        case .queue, .custom:
            executor.run { runHere(job, from: site, of: response) }
        }
    }

    private static func runHere(
        _ job: @escaping @MainActor @Sendable () -> Void, from site: CreationSite, of response: ObjectIdentifier?
    ) {
        if MainQueue.isCurrent {
            let ranInline = MainActor.assumeIsolated { () -> Bool in
                if let response, MainQueueJobs.hasHopNotStarted(of: response) { return false }
                job()
                return true
            }
            if ranInline { return }
        }
        MainQueueJobs.enqueue(.mainActor(job), from: site, hopOf: response)
    }
}
