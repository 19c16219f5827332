import Dispatch

/// ResponseKit's own first-in, first-out queue of main-queue work: every `.main` delivery,
/// main-actor callback and `Response(on: .main)` body goes through it.
///
/// Why a queue of our own in front of `DispatchQueue.main`:
/// - **Waits progress.** A blocking read on the main thread, or inside a main-queue job, cannot
///   let Dispatch run the main queue (the job it is in would have to return first). It can run
///   these jobs itself, so ResponseKit's main-queue work still finishes during such a wait.
/// - **Batches.** One `DispatchQueue.main.async` drains every job that is ready, so many
///   callbacks cost one main-queue hop.
/// - **Order.** Jobs run in the order they were enqueued, whoever runs them.
enum MainQueueJobs {
    /// A job: plain, or a main-actor one (kept apart so that a main-actor callback costs no
    /// wrapping closure).
    enum Job: Sendable {
        case plain(@Sendable () -> Void)
        case mainActor(@MainActor @Sendable () -> Void)

        /// Runs the job. The caller is on the main actor: the drains enter it once per batch
        /// (`MainActor.assumeIsolated` costs an allocation and an executor check each time:
        /// measured, a third of a W7 request when paid per job).
        @MainActor
        func run() {
            switch self {
            case .plain(let job): job()
            case .mainActor(let job): job()
            }
        }
    }

    private struct State {
        var jobs: [Job] = []
        var head = 0
        /// A `DispatchQueue.main` job that drains the queue is on its way.
        var drainScheduled = false
        /// A blocking wait inside a main-queue job sleeps on this waiter: wake it for new jobs.
        var parked: BlockingWaiter?
    }

    private static let state = LockedBox.make(State())

    /// Adds `job`; it runs on the main queue after every job enqueued before it.
    static func enqueue(_ job: @escaping @Sendable () -> Void) {
        enqueue(.plain(job))
    }

    /// Adds a main-actor `job`; it runs on the main actor after every job enqueued before it.
    static func enqueue(mainActor job: @escaping @MainActor @Sendable () -> Void) {
        enqueue(.mainActor(job))
    }

    static func enqueue(_ job: Job) {
        let (schedule, parked) = state.withLock { state -> (Bool, BlockingWaiter?) in
            state.jobs.append(job)
            let schedule = !state.drainScheduled
            state.drainScheduled = true
            return (schedule, state.parked)
        }
        parked?.wake()
        if schedule {
            DispatchQueue.main.async { drainScheduledJobs() }
        }
    }

    /// The scheduled drain: runs every job, then lets the next enqueue schedule another. A
    /// `DispatchQueue.main` job, so on the main actor, which it checks once for the batch.
    private static func drainScheduledJobs() {
        MainActor.assumeIsolated { drainScheduledJobsOnMainActor() }
    }

    @MainActor
    private static func drainScheduledJobsOnMainActor() {
        while true {
            let job = state.withLock { state -> Job? in
                if let job = pop(&state) { return job }
                state.drainScheduled = false
                return nil
            }
            guard let job else { return }
            job.run()
        }
    }

    /// Runs the jobs that are ready, on the calling thread, which must be the main thread or
    /// inside a main-queue job: a blocking wait's way of keeping ResponseKit's main-queue work
    /// going. Returns whether any ran.
    @discardableResult
    static func runReadyJobs() -> Bool {
        guard let first = state.withLock({ pop(&$0) }) else { return false }
        MainActor.assumeIsolated {
            first.run()
            while let job = state.withLock({ pop(&$0) }) { job.run() }
        }
        return true
    }

    /// Whether jobs wait to run.
    static var hasReadyJobs: Bool {
        state.withLock { $0.head < $0.jobs.count }
    }

    /// Makes `waiter` the one woken by new jobs, until ``unpark(_:)``. Returns the waiter parked
    /// before (a wait nested in a job that an outer wait ran), to restore afterwards.
    static func park(_ waiter: BlockingWaiter) -> BlockingWaiter? {
        state.withLock { state in
            let previous = state.parked
            state.parked = waiter
            return previous
        }
    }

    /// Restores the waiter parked before.
    static func unpark(restoring previous: BlockingWaiter?) {
        state.withLock { $0.parked = previous }
    }

    private static func pop(_ state: inout State) -> Job? {
        guard state.head < state.jobs.count else { return nil }
        let job = state.jobs[state.head]
        state.head += 1
        if state.head == state.jobs.count {
            state.jobs.removeAll(keepingCapacity: state.jobs.count <= 1024)
            state.head = 0
        } else if state.head >= 1024, state.head * 2 >= state.jobs.count {
            state.jobs.removeFirst(state.head)
            state.head = 0
        }
        return job
    }
}

/// Runs main-actor callbacks on the main actor.
@usableFromInline
enum MainActorDelivery {
    /// Runs `job` on the main actor, after the response's executor has had its turn: a `.main`
    /// response's jobs go through ``MainQueueJobs`` (in order with its other callbacks); for other
    /// executors the job goes through the executor first (a test's `ManualExecutor` still decides
    /// when), then runs inline if that is the main queue, or hops there.
    @usableFromInline
    static func run(after executor: ResponseExecutor, _ job: @escaping @MainActor @Sendable () -> Void) {
        switch executor.kind {
        case .main:
            MainQueueJobs.enqueue(mainActor: job)
        case .immediate:
            runHere(job)
        case .queue, .custom:
            executor.run { runHere(job) }
        }
    }

    private static func runHere(_ job: @escaping @MainActor @Sendable () -> Void) {
        if MainQueue.isCurrent {
            MainActor.assumeIsolated { job() }
        } else {
            MainQueueJobs.enqueue(mainActor: job)
        }
    }
}
