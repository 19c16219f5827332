import CResponseKit
import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
/// - **Nothing lost silently.** Jobs still queued when the process exits are reported, once,
///   with the creation site of the first (a command-line tool that never ran the main queue).
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
        /// A finished response's cancellation handler, released on the main queue and never
        /// called (see ``MainQueueJobs/release(_:)``).
        case release(@Sendable () -> Void)
        /// What a batch's slot holds once its job was taken out to run: nothing to run or release.
        case taken

        /// Runs the job and releases it. The caller is on the main actor: the drains enter it
        /// once per batch (`MainActor.assumeIsolated` costs an allocation and an executor check
        /// each time, a large share of a W7 request when paid per job: Benchmarks/README.md,
        /// "Measurements behind the engine's comments").
        ///
        /// Consuming, like every step of a job's way from ``enqueue(_:)`` to here: a job is moved,
        /// never copied. A `.call`'s copy goes through its generic value witnesses, and a job was
        /// copied three times and destroyed four, most of it on the main queue
        /// (Benchmarks/README.md, "What the engine's shape saves").
        @MainActor
        consuming func run() {
            switch consume self {
            case .plain(let job): job()
            case .mainActor(let job): job()
            case .call(let call): call.run()
            case .release, .taken: break  // consumed: a `release` lets go of its handler here
            }
        }

        /// Whether the job is a delivery: something the user's code waits for to run.
        var isDelivery: Bool {
            switch self {
            case .plain, .mainActor, .call: true
            case .release, .taken: false
            }
        }
    }

    private struct State {
        /// Jobs enqueued since the main queue last took a batch, oldest first.
        var jobs: [Job] = []
        /// A `DispatchQueue.main` job that drains the queue is on its way (mirrored, for readers
        /// without the lock, by `rk_main_jobs_flag`).
        var drainScheduled = false {
            didSet { rk_set_main_jobs_maybe_pending(drainScheduled) }
        }
        /// A blocking wait inside a main-queue job sleeps on this waiter: wake it for new jobs.
        var parked: BlockingWaiter?
        /// The creation site of the oldest job in `jobs` that has one, for the report at exit.
        var firstSite: CreationSite?
        /// Whether anyone ever took a batch: the main queue was serviced at some point.
        var everServiced = false
        /// How many jobs were ever enqueued: the sequence number of the last one.
        var enqueuedCount: UInt64 = 0
        /// For a response whose main-actor callbacks were hopped here (delivered off the main
        /// queue), the sequence number of the last one: a callback of that response about to run
        /// inline on the main queue must not overtake it (``hasHopNotStarted(of:)``). Entries of
        /// hops that started are dropped now and then (``takeBatch(endingTheDrainWhenEmpty:)``).
        var lastHops: [ObjectIdentifier: UInt64] = [:]
    }

    /// What producers share: one lock taken per enqueue, and once per batch by the main queue.
    /// Made on the first enqueue, which is also when the report at exit is set up: a process that
    /// never queues main-queue work pays nothing for it.
    private static let state: LockedBox<State> = {
        atexit { MainQueueJobs.reportJobsLeftAtExit() }
        return LockedBox.make(State())
    }()

    /// The batch the main queue took and is running, and where it stands: the main actor's own,
    /// so running a job costs no lock. A wait nested in one of these jobs runs the rest of the
    /// batch (``runReadyJobs()``) before anything enqueued later, so order holds.
    ///
    /// Both go without Swift's run-time exclusivity checks, which cost a thread-local lookup and
    /// an access-set entry per access, several times per job, on the main queue (a visible share
    /// of its time in W7/64 under `dispatchMain()`: Benchmarks/README.md). No access can
    /// overlap another: they are used only on the main actor, in ``popFromBatch()`` and
    /// ``takeBatch(endingTheDrainWhenEmpty:)``, whose accesses run nobody else's code (a job is
    /// moved out of `batch` before it runs, and a finished batch is swapped out of `batch`
    /// before it is emptied), so the nested waits that use them run only between accesses.
    @MainActor @exclusivity(unchecked) private static var batch: [Job] = []
    @MainActor @exclusivity(unchecked) private static var next = 0
    /// How many jobs were ever taken out of a batch to run: jobs run in the order they were
    /// enqueued, so the job with sequence number `n` has started once this reaches `n`. Used only
    /// in ``popFromBatch()``, ``runJobsEnqueuedSoFar()``, ``hasHopNotStarted(of:)`` and
    /// ``takeBatch(endingTheDrainWhenEmpty:)`` (read), like `batch`.
    @MainActor @exclusivity(unchecked) private static var startedCount: UInt64 = 0

    /// Adds `job`; it runs on the main queue after every job enqueued before it.
    static func enqueue(_ job: @escaping @Sendable () -> Void) {
        enqueue(.plain(job), from: .unknown)
    }

    /// Adds `job`, queued for the response made at `site`; it runs on the main queue after every
    /// job enqueued before it.
    ///
    /// - Parameter response: for a main-actor callback hopped here, the response it belongs to,
    ///   remembered so that a later callback of it does not run inline ahead of this one.
    @usableFromInline
    static func enqueue(_ job: consuming Job, from site: CreationSite, hopOf response: ObjectIdentifier? = nil) {
        var job = consume job  // moved: no reference of the caller's outlives the lock (`release(_:)`)
        let (schedule, parked) = state.withLock { state -> (Bool, BlockingWaiter?) in
            var moved = Job.taken
            swap(&moved, &job)  // the closure holds `job` by reference: take it out, not a copy
            state.jobs.append(consume moved)
            state.enqueuedCount &+= 1
            if let response { state.lastHops[response] = state.enqueuedCount }
            if state.firstSite == nil, site.file != nil { state.firstSite = site }
            let schedule = !state.drainScheduled
            if schedule { state.drainScheduled = true }
            return (schedule, state.parked)
        }
        parked?.wakeForMainQueueJobs()
        if schedule {
            DispatchQueue.main.async { drainScheduledJobs() }
        }
    }

    /// Releases `handler` on the main queue, after the jobs enqueued before it. For a response on
    /// `.main` whose result won and queued a callback there: its work's cancellation handler is
    /// released after its callbacks, on the thread that runs them.
    ///
    /// Why: the async bridge's handler holds the response's `Task`, which the caller's thread
    /// made (two allocations). When the worker that finished the task released the handler, it
    /// freed the task there: in W7's async body nearly every task was freed by another thread than
    /// made it, and `malloc`'s slow paths (`malloc_consolidate`, the arena's lock) showed in the
    /// profile. Released here, after the delivery (by then the task has almost always ended),
    /// nearly every task is freed where it was made, and the async body is faster (the figures:
    /// Benchmarks/README.md, "The async bridge's task, freed where it was made").
    ///
    /// Only after a delivery queued here: otherwise the handler would wait for a main queue that
    /// nothing else needs to run (a program that never services it would hold it until exit). The
    /// report at exit counts deliveries only.
    ///
    /// Consuming, and the caller moves its reference in: a reference the caller dropped after
    /// this returned would race the main queue's, and be the last one whenever the main queue
    /// ran the job first (a test caught it releasing off the main queue one run in five).
    @usableFromInline
    static func release(_ handler: consuming @escaping @Sendable () -> Void) {
        enqueue(.release(consume handler), from: .unknown)
    }

    /// The scheduled drain: runs every job, then lets the next enqueue schedule another. A
    /// `DispatchQueue.main` job, so on the main actor, which it checks once for the batch.
    private static func drainScheduledJobs() {
        ResponseCheckScope.outsideAnyScope {
            MainActor.assumeIsolated { drainScheduledJobsOnMainActor() }
        }
    }

    @MainActor
    private static func drainScheduledJobsOnMainActor() {
        while true {
            while let job = popFromBatch() { (consume job).run() }
            guard takeBatch(endingTheDrainWhenEmpty: true) else { return }
        }
    }

    /// ``runJobsEnqueuedSoFar()`` when the caller is on the main thread or inside a main-queue
    /// job and some job may be waiting; elsewhere does nothing. How a blocking read of a response
    /// already delivered settles the main-queue deliveries queued before it (``Response/value``).
    ///
    /// Cheap when there is nothing to do: one relaxed load when no drain is scheduled, without
    /// asking Dispatch where the caller runs.
    @usableFromInline
    static func runJobsEnqueuedSoFarIfOnMainQueue() {
        guard rk_main_jobs_maybe_pending(), MainQueue.isCurrent else { return }
        runJobsEnqueuedSoFar()
    }

    /// Runs, in order, every job enqueued before this call that has not started yet, on the
    /// calling thread, which must be the main thread or inside a main-queue job: how a blocking
    /// read that returns on the main queue settles the deliveries its response queued.
    ///
    /// Not one job more: jobs enqueued meanwhile (by the jobs it runs, or by other threads) are
    /// left to the main queue's own drain, so a read never loops on work that feeds itself.
    @usableFromInline
    static func runJobsEnqueuedSoFar() {
        let target = state.withLock { $0.enqueuedCount }
        // Other code's jobs, run by this caller: each in its own scope, not the caller's
        // (``ResponseCheckScope/outsideAnyScope(_:)``).
        ResponseCheckScope.outsideAnyScope {
            runJobs(upTo: target)
        }
    }

    /// ``runJobsEnqueuedSoFar()``'s loop.
    private static func runJobs(upTo target: UInt64) {
        MainActor.assumeIsolated {
            while startedCount < target {
                if let job = popFromBatch() {
                    (consume job).run()
                } else if !takeBatch(endingTheDrainWhenEmpty: false) {
                    return
                }
            }
        }
    }

    /// Whether a main-actor callback of `response` hopped here has not started yet: then a later
    /// one must queue behind it rather than run inline. Free when nothing was queued (one relaxed
    /// load: the caller saw the response delivered, after any hop of it was enqueued).
    @MainActor
    static func hasHopNotStarted(of response: ObjectIdentifier) -> Bool {
        guard rk_main_jobs_maybe_pending() else { return false }
        guard let last = state.withLock({ $0.lastHops[response] }) else { return false }
        return startedCount < last
    }

    /// Runs the jobs that are ready, on the calling thread, which must be the main thread or
    /// inside a main-queue job: a blocking wait's way of keeping ResponseKit's main-queue work
    /// going. Returns whether any ran.
    @discardableResult
    static func runReadyJobs() -> Bool {
        ResponseCheckScope.outsideAnyScope {
            MainActor.assumeIsolated { runReadyJobsOnMainActor() }
        }
    }

    /// ``runReadyJobs()``'s loop.
    @MainActor
    private static func runReadyJobsOnMainActor() -> Bool {
        var ran = false
        while true {
            while let job = popFromBatch() {
                ran = true
                (consume job).run()
            }
            guard takeBatch(endingTheDrainWhenEmpty: false) else { return ran }
        }
    }

    /// Takes the next job of the batch under way out of it, if any, leaving `taken` in its slot.
    @MainActor
    private static func popFromBatch() -> Job? {
        guard next < batch.count else { return nil }
        var job = Job.taken
        swap(&job, &batch[next])
        next += 1
        startedCount &+= 1
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
        let started = startedCount
        let took = state.withLock { state in
            state.everServiced = true
            // Every job before this batch has started: their hops need no remembering. Swept
            // only past a few entries, so the common case (no hops) costs a count.
            if state.lastHops.count > 32 { state.lastHops = state.lastHops.filter { $0.value > started } }
            if state.jobs.isEmpty {
                if endingTheDrainWhenEmpty { state.drainScheduled = false }
                return false
            }
            swap(&state.jobs, &storage)
            state.firstSite = nil
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

    // MARK: - At exit

    /// Reports, once, the jobs that never ran because the process is exiting: deliveries lost
    /// silently otherwise (`response.onCompletion { print($0) }` at the end of a `main.swift`
    /// that never runs the main queue prints nothing). Called by `atexit`.
    ///
    /// Counts the jobs no batch took, and, when the process exits from the main queue (inside a
    /// main-queue job, or at the end of `main.swift`), those left in the batch under way. Takes
    /// the lock only if it is free: `exit` may be called from a signal handler that interrupted
    /// this thread while it held it, and then the report is skipped rather than the exit hung.
    private static func reportJobsLeftAtExit() {
        guard
            let (queued, firstSite, serviced) = state.withLockIfAvailable({ state in
                (state.jobs.count { $0.isDelivery }, state.firstSite, state.everServiced)
            })
        else { return }
        // Only the main queue touches the batch; elsewhere it may be running, so it is not read.
        let leftInBatch =
            MainQueue.isCurrent ? MainActor.assumeIsolated { batch[next...].count { $0.isDelivery } } : 0
        let count = queued + leftInBatch
        guard count > 0 else { return }
        let site = firstSite ?? .unknown
        let deliveries = count == 1 ? "1 delivery" : "\(count) deliveries"
        let why =
            serviced
            ? "the process exited before the main queue ran them"
            : "nobody serviced the main queue (call dispatchMain() or RunLoop.main.run(), or block on the "
                + "response's value, before the program ends)"
        let first = site.file == nil ? "" : "; the first is for a response created at \(site.fileName):\(site.line)"
        ResponseDiagnostics.report(
            .lostAtExit,
            "\(deliveries) queued for the main queue never ran: \(why)\(first)",
            file: site.fileName,
            line: site.line
        )
    }
}
