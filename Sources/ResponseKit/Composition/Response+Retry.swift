// Backoff is in `Duration`s, which need macOS 13 / iOS 16.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Response {
    /// Makes attempts until one succeeds, up to `attempts` in all, calling `makeAttempt` again
    /// for each new attempt and pausing as `backoff` says between them.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the attempts run.
    ///
    /// ```swift
    /// import ResponseKit
    ///
    /// struct Feed: Sendable { let items: [String] }
    /// nonisolated func fetchFeed() -> Response<Feed> { Response(on: .global()) { Feed(items: ["news"]) } }
    ///
    /// let feed = Response<Feed>.retry(attempts: 3, backoff: .exponential(initial: .milliseconds(200))) {
    ///     fetchFeed()
    /// }
    /// ```
    ///
    /// The response fails with the last attempt's error once attempts run out, or at once when
    /// `shouldRetry` says an error is final. Cancellation is never retried. Cancelling the response
    /// cancels the attempt under way and makes no more.
    ///
    /// - Parameters:
    ///   - attempts: how many attempts at most, the first included; values below 1 count as 1.
    ///   - backoff: the pause before each new attempt; none by default.
    ///   - scheduler: the source of time for pauses; pass `ManualScheduler` in tests.
    ///   - executor: where the response delivers its callbacks; ``ResponseExecutor/main`` by default.
    ///   - shouldRetry: whether an error is worth another attempt; every error but cancellation
    ///     by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - makeAttempt: starts one attempt.
    /// - Returns: a response with the first successful attempt's value, or the last failure.
    /// - Note: In a target with main-actor isolation by default (Xcode 26), what `makeAttempt` calls must
    ///   be `nonisolated`, as gateways and interactors are: see <doc:MainActorByDefault>.
    public static func retry(
        attempts: Int,
        backoff: RetryBackoff = .none,
        scheduler: any ResponseScheduler = DispatchScheduler(),
        on executor: ResponseExecutor = .main,
        shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
        file: StaticString = #fileID,
        line: UInt = #line,
        _ makeAttempt: @escaping @Sendable () -> Response<Value>
    ) -> Response<Value> {
        let (response, resolver) = pending(on: executor, file: file, line: line)
        let retrier = Retrier(
            resolver: resolver,
            attempts: max(1, attempts),
            backoff: backoff,
            scheduler: scheduler,
            shouldRetry: shouldRetry,
            makeAttempt: makeAttempt
        )
        resolver.onCancel { retrier.stopPendingPause() }
        retrier.start(attempt: 1)
        return response
    }
}

/// The loop behind ``Response/retry(attempts:backoff:scheduler:on:shouldRetry:file:line:_:)``.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
private final class Retrier<Value: Sendable>: Sendable {
    let resolver: Resolver<Value>
    let attempts: Int
    let backoff: RetryBackoff
    let scheduler: any ResponseScheduler
    let shouldRetry: @Sendable (any Error) -> Bool
    let makeAttempt: @Sendable () -> Response<Value>
    /// The pause under way, so cancelling can stop it.
    private let pause = LockedBox<ScheduledJob?>.make(nil)
    /// Whether a thread is starting attempts, and the attempt due next that it must start.
    private let starting = LockedBox<(isStarting: Bool, next: Int?)>.make((false, nil))

    init(
        resolver: Resolver<Value>,
        attempts: Int,
        backoff: RetryBackoff,
        scheduler: any ResponseScheduler,
        shouldRetry: @escaping @Sendable (any Error) -> Bool,
        makeAttempt: @escaping @Sendable () -> Response<Value>
    ) {
        self.resolver = resolver
        self.attempts = attempts
        self.backoff = backoff
        self.scheduler = scheduler
        self.shouldRetry = shouldRetry
        self.makeAttempt = makeAttempt
    }

    /// Starts `attempt`, or leaves it to the thread already starting attempts: an attempt that
    /// fails at once, whose pause a scheduler runs at once (as ``ResponseScheduler`` allows for a
    /// zero delay), starts the next from inside this call, and without the loop the stack would
    /// grow by an attempt's frames for each attempt, up to a crash.
    func start(attempt: Int) {
        let mustStart = starting.withLock { state in
            if state.isStarting {
                state.next = attempt
                return false
            }
            state.isStarting = true
            return true
        }
        guard mustStart else { return }
        var attempt = attempt
        while true {
            startNow(attempt: attempt)
            let next = starting.withLock { state -> Int? in
                defer { state.next = nil }
                if state.next == nil { state.isStarting = false }
                return state.next
            }
            guard let next else { return }
            attempt = next
        }
    }

    private func startNow(attempt: Int) {
        guard !resolver.response.isDone else { return }
        let response = makeAttempt()
        response.link(resolver.response)  // cancelling the retry cancels this attempt
        response.addInternalObserver(.observer { result, _ in self.finished(attempt: attempt, with: result) })
    }

    private func finished(attempt: Int, with result: Result<Value, any Error>) {
        guard case .failure(let error) = result,
            attempt < attempts,
            !(error is CancellationError),
            shouldRetry(error)
        else {
            resolver.resolveIfPending(with: result)
            return
        }
        let job = scheduler.schedule(after: backoff.delay(beforeAttempt: attempt + 1)) {
            self.start(attempt: attempt + 1)
        }
        pause.withLock { $0 = job }
        if resolver.response.isDone { job.cancel() }  // cancelled while we scheduled
    }

    func stopPendingPause() {
        pause.withLock { $0 }?.cancel()
    }
}
