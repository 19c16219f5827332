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
@usableFromInline
enum MainQueueJobs {
    /// A job: plain, or a main-actor one (kept apart so that a main-actor callback costs no
    /// wrapping closure).
    @usableFromInline
    enum Job: Sendable {
        case plain(@Sendable () -> Void)
        case mainActor(@MainActor @Sendable () -> Void)
        /// A callback and its argument, without a closure around them (see ``MainQueueCall``).
        case call(any MainQueueCall)
        /// What a batch's slot holds once its job was taken out to run: nothing to run or release.
        case taken

        /// Runs the job and releases it. The caller is on the main actor: the drains enter it
        /// once per batch (`MainActor.assumeIsolated` costs an allocation and an executor check
        /// each time: measured, a third of a W7 request when paid per job).
        ///
        /// Consuming, like every step of a job's way from ``enqueue(_:)`` to here: a job is moved,
        /// never copied. A `.call`'s copy goes through its generic value witnesses (measured with
        /// callgrind in W7/64: about 130 instructions a copy and 60 a destroy, and a job was copied
        /// three times and destroyed four, most of it on the main queue).
        @MainActor
        consuming func run() {
            switch consume self {
            case .plain(let job): job()
            case .mainActor(let job): job()
            case .call(let call): call.run()
            case .taken: break
            }
        }
    }

    private struct State {
        /// Jobs enqueued since the main queue last took a batch, oldest first.
        var jobs: [Job] = []
        /// A `DispatchQueue.main` job that drains the queue is on its way.
        var drainScheduled = false
        /// A blocking wait inside a main-queue job sleeps on this waiter: wake it for new jobs.
        var parked: BlockingWaiter?
    }

    /// What producers share: one lock taken per enqueue, and once per batch by the main queue.
    private static let state = LockedBox.make(State())

    /// The batch the main queue took and is running, and where it stands: the main actor's own,
    /// so running a job costs no lock. A wait nested in one of these jobs runs the rest of the
    /// batch (``runReadyJobs()``) before anything enqueued later, so order holds.
    ///
    /// Both go without Swift's run-time exclusivity checks, which cost a thread-local lookup and
    /// an access-set entry per access, several times per job, on the main queue (measured in
    /// W7/64 under `dispatchMain()`: about a tenth of the main queue's time). No access can
    /// overlap another: they are used only on the main actor, in ``popFromBatch()`` and
    /// ``takeBatch(endingTheDrainWhenEmpty:)``, whose accesses run nobody else's code (a job is
    /// moved out of `batch` before it runs, and a finished batch is swapped out of `batch`
    /// before it is emptied), so the nested waits that use them run only between accesses.
    @MainActor @exclusivity(unchecked) private static var batch: [Job] = []
    @MainActor @exclusivity(unchecked) private static var next = 0

    /// Adds `job`; it runs on the main queue after every job enqueued before it.
    static func enqueue(_ job: @escaping @Sendable () -> Void) {
        enqueue(.plain(job))
    }

    /// Adds a main-actor `job`; it runs on the main actor after every job enqueued before it.
    static func enqueue(mainActor job: @escaping @MainActor @Sendable () -> Void) {
        enqueue(.mainActor(job))
    }

    @usableFromInline
    static func enqueue(_ job: consuming Job) {
        var job = job
        let (schedule, parked) = state.withLock { state -> (Bool, BlockingWaiter?) in
            var moved = Job.taken
            swap(&moved, &job)  // the closure holds `job` by reference: take it out, not a copy
            state.jobs.append(consume moved)
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
            while let job = popFromBatch() { (consume job).run() }
            guard takeBatch(endingTheDrainWhenEmpty: true) else { return }
        }
    }

    /// Runs the jobs that are ready, on the calling thread, which must be the main thread or
    /// inside a main-queue job: a blocking wait's way of keeping ResponseKit's main-queue work
    /// going. Returns whether any ran.
    @discardableResult
    static func runReadyJobs() -> Bool {
        MainActor.assumeIsolated {
            var ran = false
            while true {
                while let job = popFromBatch() {
                    ran = true
                    (consume job).run()
                }
                guard takeBatch(endingTheDrainWhenEmpty: false) else { return ran }
            }
        }
    }

    /// Takes the next job of the batch under way out of it, if any, leaving `taken` in its slot.
    @MainActor
    private static func popFromBatch() -> Job? {
        guard next < batch.count else { return nil }
        var job = Job.taken
        swap(&job, &batch[next])
        next += 1
        return job
    }

    /// Takes every job enqueued so far as the new batch (the old one is done: its storage is
    /// handed back to the producers, so neither side allocates once warm). `false` when there
    /// were none; then, for the scheduled drain, the next enqueue schedules another.
    ///
    /// Jobs are released outside any access to `batch`: their releases run deinits, which can
    /// reach a blocking wait on the main queue (a dropped resolver abandons a response whose
    /// `.immediate` callback blocks), and that wait's ``runReadyJobs()`` reads `batch`; inside
    /// `batch.removeAll` that was an overlapping access (which Swift's run-time check trapped
    /// before `batch` went without it). Each job is released as it runs (``Job/run()`` consumes
    /// it, after ``popFromBatch()`` took it out), so the finished batch holds only `taken` slots;
    /// it is still emptied outside `batch`.
    @MainActor
    private static func takeBatch(endingTheDrainWhenEmpty: Bool) -> Bool {
        var storage: [Job] = []
        swap(&storage, &batch)  // a move: runs no deinit
        next = 0
        storage.removeAll(keepingCapacity: storage.capacity <= 1024)  // `taken` slots; `batch` is empty
        let took = state.withLock { state in
            if state.jobs.isEmpty {
                if endingTheDrainWhenEmpty { state.drainScheduled = false }
                return false
            }
            swap(&state.jobs, &storage)
            return true
        }
        guard took else {
            // Kept for the next batch: dropped here, it left the producers an array without
            // capacity after every drain that ran dry, to regrow one reallocation at a time.
            swap(&storage, &batch)
            return false
        }
        precondition(batch.isEmpty && next == 0, "ResponseKit: main-queue jobs taken twice")
        swap(&storage, &batch)
        return true
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
}

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
    @inlinable
    static func call<Argument: Sendable>(
        _ body: @escaping @MainActor (Argument) -> Void,
        with argument: Argument,
        after executor: ResponseExecutor
    ) {
        if case .main = executor.kind {
            MainQueueJobs.enqueue(.call(MainActorCall(body: body, argument: argument)))
        } else {
            run(after: executor) { body(argument) }
        }
    }

    /// Calls a `.main` response's `@Sendable` callback with `argument` on the main queue, without
    /// allocating a closure.
    @inlinable
    static func callOnMainQueue<Argument: Sendable>(
        _ body: @escaping @Sendable (Argument) -> Void, with argument: Argument
    ) {
        MainQueueJobs.enqueue(.call(SendableCall(body: body, argument: argument)))
    }

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
