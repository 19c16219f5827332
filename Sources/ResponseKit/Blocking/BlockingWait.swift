import CResponseKit
import Dispatch
import Foundation

/// One blocking wait, in the way its thread allows:
///
/// - **On the main thread, outside any main-queue job**: runs `RunLoop.main`, which drains
///   `DispatchQueue.main`, so every main-queue job (ResponseKit's and the app's) still runs.
/// - **Inside a main-queue job** (a `DispatchQueue.main` block, a `@MainActor` task, a `.main`
///   callback run during another wait), on any thread: the main queue cannot run anything else
///   until the job returns, so the wait runs ResponseKit's own main-queue jobs
///   (``MainQueueJobs``) itself; if it is still waiting after
///   ``ResponseDiagnostics/mainQueueBlockedThreshold``, it reports, naming the response, that
///   work needing other main-queue jobs can never finish.
/// - **Elsewhere**: sleeps on a semaphore.
///
/// The two waits on the main queue end when the response wakes their waiter, not when it is
/// done: a response wakes its callbacks in registration order, so by then every callback
/// registered before the wait has its main-queue job enqueued, and the caller runs those jobs
/// before it returns (``Response/value``).
///
/// Every kind reports a wait with no deadline that lasts longer than
/// ``ResponseDiagnostics/longWaitThreshold`` (a sleeping one through ``LongWaitWatch``, so that it
/// sleeps with no timer), and a wait inside a Swift concurrency task looks at the task's
/// cancellation every few milliseconds.
///
/// Times are Dispatch's uptime in nanoseconds (`DispatchTime`), not `ContinuousClock`, which needs
/// macOS 13 / iOS 16: every blocking read (`value`) runs here, at the package's platform floor.
///
/// Not generic: it sees the response as a ``AnyResponse``. A generic wait, called from
/// the read's code specialised for the value type, looked up the metadata of its own type, of the
/// response's and of `Result` at run time on every read (a large share of W4's round trip:
/// Benchmarks/README.md).
@usableFromInline
struct BlockingWait {
    let response: any AnyResponse
    let waiter: BlockingWaiter
    /// Where the wait runs; a run-loop wait that finds the run loop cannot run becomes a wait
    /// inside a main-queue job.
    var place: Place
    /// When to give up, in uptime nanoseconds; `nil` to wait for good.
    let deadline: UInt64?
    let inTask: Bool
    let start = Self.now
    /// In a test under the response checks, a wait with no deadline gives up at the test's wait
    /// limit (uptime nanoseconds), so that a wait that can never end fails the test instead of
    /// hanging the run; `nil` elsewhere.
    let limit: UInt64?
    /// The checks of the test that reads, which hear of a wait that reached its limit.
    let checks: ResponseCheckScope?

    @usableFromInline
    init(response: any AnyResponse, waiter: BlockingWaiter, place: Place, deadline: UInt64?, inTask: Bool) {
        self.response = response
        self.waiter = waiter
        self.place = place
        self.deadline = deadline
        self.inTask = inTask
        // One relaxed load while no test checks responses.
        if deadline == nil, rk_check_scopes_are_running(),
            let checks = ResponseCheckScope.current ?? ResponseCheckScopeTable.scope(of: ObjectIdentifier(response))
        {
            self.checks = checks
            limit = Self.adding(checks.waitLimitNanoseconds, to: start)
        } else {
            checks = nil
            limit = nil
        }
    }

    @usableFromInline
    enum Outcome {
        case done
        case timedOut
        case taskCancelled
        /// The checked test's wait limit passed (``limit``).
        case waitLimitReached
    }

    @usableFromInline
    enum Place {
        case mainRunLoop
        case insideMainQueueJob
        case elsewhere

        /// On the main thread the run loop is tried first (it says when it cannot run, inside a
        /// main-queue job; Dispatch cannot tell, since on the main thread it counts every caller as
        /// on the main queue); elsewhere, being inside a main-queue job is asked of Dispatch.
        @usableFromInline
        static var current: Place {
            if MainQueue.isMainThread { return .mainRunLoop }
            if MainQueue.isInsideJob { return .insideMainQueueJob }
            return .elsewhere
        }

        /// Whether main-queue jobs may be run from here (the main thread, or inside a main-queue job).
        @usableFromInline
        var isOnMainQueue: Bool { self != .elsewhere }
    }

    /// What a wait has seen so far: the diagnostics it reported (each at most once), and when it
    /// first found its response done before the response's delivery had reached its waiter.
    private struct Seen {
        var longWaitReported = false
        var mainQueueBlockedReported = false
        var doneButUndelivered: UInt64?
        /// Inside a main-queue job: whether Dispatch's worker threads were free meanwhile.
        var pool = WorkerPoolWatch()
    }

    /// How often a wait inside a task looks at the task's cancellation, in nanoseconds.
    private static var cancellationCheckInterval: UInt64 { 20_000_000 }

    /// How often a wait on the main queue looks whether its response is done while its delivery
    /// has not reached the waiter (nothing wakes the wait for that), in nanoseconds; and, once it
    /// is, how often it looks again.
    private static var deliveryCheckInterval: UInt64 { 100_000_000 }
    private static var deliveryPollInterval: UInt64 { 1_000_000 }

    /// Now, in uptime nanoseconds.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// When a wait with no deadline is reported as long.
    private var longWaitReport: UInt64 {
        Self.adding(ResponseDiagnostics.longWaitThresholdNanoseconds, to: start)
    }

    /// When a wait inside a main-queue job is reported as blocking the main queue.
    private var mainQueueBlockedReport: UInt64 {
        Self.adding(ResponseDiagnostics.mainQueueBlockedThresholdNanoseconds, to: start)
    }

    /// How long a wait on the main queue waits for a done response's delivery to reach its waiter
    /// before it returns without it: inside a main-queue job, as long as it may hold the main
    /// queue before that is reported (a callback before the read may be waiting for the main
    /// queue itself); on the main run loop, which keeps the main queue going, as long as any wait.
    private var undeliveredLimit: UInt64 {
        place == .insideMainQueueJob
            ? ResponseDiagnostics.mainQueueBlockedThresholdNanoseconds
            : ResponseDiagnostics.longWaitThresholdNanoseconds
    }

    /// `time + interval`, saturating.
    static func adding(_ interval: UInt64, to time: UInt64) -> UInt64 {
        let (sum, overflow) = time.addingReportingOverflow(interval)
        return overflow ? .max : sum
    }

    /// Whether the wait is over: on the main queue, once the response woke the waiter (every
    /// callback registered before it handed out); elsewhere, once the response is done.
    private var isOver: Bool {
        place.isOnMainQueue ? waiter.hasBeenWokenByResponse : response.isDone
    }

    @usableFromInline
    func run() -> Outcome {
        switch place {
        case .mainRunLoop: runMainLoop()
        case .insideMainQueueJob: runMainQueueJobs()
        case .elsewhere: block()
        }
    }

    /// When to stop waiting next: the deadline, the moment to report a long wait or a blocked main
    /// queue, the next look at a done response's delivery or at the task's cancellation,
    /// whichever comes first.
    private func nextStop(_ seen: Seen) -> UInt64? {
        var stop = deadline ?? (seen.longWaitReported ? nil : longWaitReport)
        func comeBack(by instant: UInt64) { stop = stop.map { min($0, instant) } ?? instant }
        if place == .insideMainQueueJob, !seen.mainQueueBlockedReported { comeBack(by: mainQueueBlockedReport) }
        if place.isOnMainQueue {
            let interval = seen.doneButUndelivered == nil ? Self.deliveryCheckInterval : Self.deliveryPollInterval
            comeBack(by: Self.adding(interval, to: Self.now))
        }
        if inTask { comeBack(by: Self.adding(Self.cancellationCheckInterval, to: Self.now)) }
        if let limit { comeBack(by: limit) }
        return stop
    }

    /// After a wake-up or a stop without the response: what to do next.
    private func afterStop(_ seen: inout Seen) -> Outcome? {
        if isOver { return .done }
        if inTask, withUnsafeCurrentTask(body: { $0?.isCancelled ?? false }) { return .taskCancelled }
        let now = Self.now
        if place.isOnMainQueue, response.isDone {
            // Done, but its delivery has not reached this read's waiter: callbacks registered
            // before the read are still being handed out, on another thread. The deadline no
            // longer applies (the response is not late); the delivery is waited for, up to a limit
            // that keeps a callback blocked for good (say, on the main queue this read holds)
            // from hanging the read.
            let since = seen.doneButUndelivered ?? now
            seen.doneButUndelivered = since
            guard now - since >= undeliveredLimit else { return nil }
            reportUndelivered(after: now - since)
            return .done
        }
        if place == .insideMainQueueJob, !seen.mainQueueBlockedReported, now &- start >= WorkerPoolWatch.interval {
            // The main queue counts as blocked only for the time Dispatch's worker threads were
            // free: work that waits for a thread of a stalled pool is late, not stuck.
            seen.pool.look(now: now)
            if now
                >= Self.adding(
                    ResponseDiagnostics.mainQueueBlockedThresholdNanoseconds, to: max(start, seen.pool.stalledUntil))
            {
                seen.mainQueueBlockedReported = true
                reportMainQueueBlocked(after: now - start, poolStalledFor: seen.pool.stalledFor)
            }
        }
        if let limit, now >= limit {
            reportWaitLimit(after: now - start)
            return .waitLimitReached
        }
        if let deadline {
            return now >= deadline ? .timedOut : nil
        }
        if !seen.longWaitReported, now >= longWaitReport {
            seen.longWaitReported = true
            Self.reportLongWait(on: response)
        }
        return nil
    }

    /// Reports that a blocking wait on `response` has lasted longer than the threshold and goes on.
    static func reportLongWait(on response: any AnyResponse) {
        let threshold = PendingResponse.seconds(
            .nanoseconds(Int(clamping: ResponseDiagnostics.longWaitThresholdNanoseconds))
        )
        ResponseDiagnostics.report(
            .longWait,
            "a blocking wait on \(response) has waited over \(threshold) "
                + "and goes on; if the work needs the thread or queue this wait blocks, it can never finish",
            file: response.file,
            line: response.line,
            about: response
        )
    }

    /// Reports that this wait, inside a main-queue job, has held the main queue for `waited`
    /// nanoseconds, the last threshold's worth of them with Dispatch's worker threads free. Says
    /// what is known, not more: whether the work needs the main queue cannot be told from here.
    private func reportMainQueueBlocked(after waited: UInt64, poolStalledFor stalled: UInt64) {
        let seconds = PendingResponse.seconds(.nanoseconds(Int(clamping: waited)))
        let stall =
            stalled == 0
            ? ""
            : " (of which Dispatch's worker threads had none free for "
                + "\(PendingResponse.seconds(.nanoseconds(Int(clamping: stalled)))), not counted)"
        ResponseDiagnostics.report(
            .mainQueueBlocked,
            "a blocking wait on \(response) inside a main-queue job is still waiting after \(seconds)\(stall), "
                + "while Dispatch's worker threads were free to run its work; the main queue can run nothing else "
                + "until the wait ends (only ResponseKit's own main-queue work goes on), so if the work needs the "
                + "main queue it will never finish (await get() instead, or wait off the main queue)",
            file: response.file,
            line: response.line,
            about: response
        )
    }

    /// Reports that this wait, in a checked test, gives up at the test's wait limit.
    private func reportWaitLimit(after waited: UInt64) {
        let seconds = PendingResponse.seconds(.nanoseconds(Int(clamping: waited)))
        ResponseDiagnostics.report(
            .longWait,
            "a blocking read of \(response) gave up after \(seconds), the test's wait limit, and threw "
                + "ResponseError.waitLimitExceeded so that the test ends; if the work needs the thread or queue the "
                + "read blocked (the main queue, inside a @MainActor test), it could never finish",
            file: response.file,
            line: response.line,
            about: response,
            in: checks
        )
    }

    /// Reports that this wait's response has been done for `waited` nanoseconds without its
    /// delivery reaching the wait, which now returns without the main-queue callbacks registered
    /// after the one that holds the delivery up.
    private func reportUndelivered(after waited: UInt64) {
        let seconds = PendingResponse.seconds(.nanoseconds(Int(clamping: waited)))
        let kind: ResponseDiagnostic.Kind = place == .insideMainQueueJob ? .mainQueueBlocked : .longWait
        let holdsMainQueue =
            place == .insideMainQueueJob
            ? " (perhaps waiting for the main queue, which this read holds: it is inside a main-queue job)" : ""
        ResponseDiagnostics.report(
            kind,
            "\(response) is done, but a callback registered before this blocking read has held up its delivery "
                + "for \(seconds)\(holdsMainQueue); the read returns without waiting for the main-queue callbacks "
                + "registered after it",
            file: response.file,
            line: response.line,
            about: response
        )
    }

    /// Sleeps on the semaphore until woken, or until the next stop.
    private func sleep(_ seen: Seen) -> Bool {
        guard let stop = nextStop(seen) else {
            waiter.semaphore.wait()
            return true
        }
        return waiter.semaphore.wait(timeout: .saturating(uptimeNanoseconds: stop)) == .success
    }

    /// Off the main queue: sleeps on the semaphore.
    func block() -> Outcome {
        if deadline == nil, !inTask, limit == nil {
            // Nothing to wake up for but the outcome: sleep with no timer, and let the watch
            // report a long wait (a timed sleep costs the kernel a timer per wait).
            let ticket = LongWaitWatch.watch(response, due: longWaitReport)
            defer { LongWaitWatch.unwatch(ticket) }
            while !response.isDone { waiter.semaphore.wait() }
            return .done
        }
        var seen = Seen()
        while true {
            _ = sleep(seen)
            if let outcome = afterStop(&seen) { return outcome }
        }
    }

    /// Inside a main-queue job: runs ResponseKit's main-queue jobs as they come, sleeping between.
    func runMainQueueJobs() -> Outcome {
        let previous = MainQueueJobs.park(waiter)
        defer { MainQueueJobs.unpark(restoring: previous) }
        var seen = Seen()
        while true {
            MainQueueJobs.runReadyJobs()
            if isOver { return .done }
            // Woken (a job to run, or the response is done) or at a stop: either way the wait's
            // clocks are looked at, so that a steady stream of jobs cannot keep a wait from
            // being reported, nor from giving up at a checked test's wait limit.
            _ = sleep(seen)
            if let outcome = afterStop(&seen) { return outcome }
        }
    }

    /// On the main thread outside any job: runs the main run loop, which drains the main queue.
    func runMainLoop() -> Outcome {
        var seen = Seen()
        while true {
            if isOver { return .done }
            let stop = nextStop(seen)
            if let stop, stop <= Self.now {
                if let outcome = afterStop(&seen) { return outcome }
                continue
            }
            let limit = stop.map { Date(timeIntervalSinceNow: Self.seconds(until: $0)) } ?? .distantFuture
            if !RunLoop.main.run(mode: .default, before: limit) {
                // The run loop cannot run here after all: run ResponseKit's jobs by hand.
                var insideJob = self
                insideJob.place = .insideMainQueueJob
                return insideJob.runMainQueueJobs()
            }
            if let outcome = afterStop(&seen) { return outcome }
        }
    }

    private static func seconds(until instant: UInt64) -> Double {
        let now = Self.now
        return instant > now ? Double(instant - now) / 1e9 : 0
    }
}
