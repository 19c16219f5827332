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
struct BlockingWait<Value: Sendable> {
    let response: Response<Value>
    let waiter: BlockingWaiter
    /// Where the wait runs; a run-loop wait that finds the run loop cannot run becomes a wait
    /// inside a main-queue job.
    var place: Place
    /// When to give up, in uptime nanoseconds; `nil` to wait for good.
    let deadline: UInt64?
    let inTask: Bool
    let start = Self.now

    enum Outcome {
        case done
        case timedOut
        case taskCancelled
    }

    enum Place {
        case mainRunLoop
        case insideMainQueueJob
        case elsewhere

        /// On the main thread the run loop is tried first (it says when it cannot run, inside a
        /// main-queue job; Dispatch cannot tell, since on the main thread it counts every caller as
        /// on the main queue); elsewhere, being inside a main-queue job is asked of Dispatch.
        static var current: Place {
            if MainQueue.isMainThread { return .mainRunLoop }
            if MainQueue.isInsideJob { return .insideMainQueueJob }
            return .elsewhere
        }

        /// Whether main-queue jobs may be run from here (the main thread, or inside a main-queue job).
        var isOnMainQueue: Bool { self != .elsewhere }
    }

    /// The diagnostics a wait has reported, each at most once.
    private struct Reported {
        var longWait = false
        var mainQueueBlocked = false
    }

    /// How often a wait inside a task looks at the task's cancellation, in nanoseconds.
    private static var cancellationCheckInterval: UInt64 { 20_000_000 }

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

    func run() -> Outcome {
        switch place {
        case .mainRunLoop: runMainLoop()
        case .insideMainQueueJob: runMainQueueJobs()
        case .elsewhere: block()
        }
    }

    /// When to stop waiting next: the deadline, the moment to report a long wait or a blocked main
    /// queue, or the next look at the task's cancellation, whichever comes first.
    private func nextStop(_ reported: Reported) -> UInt64? {
        var stop = deadline ?? (reported.longWait ? nil : longWaitReport)
        if place == .insideMainQueueJob, !reported.mainQueueBlocked {
            stop = stop.map { min($0, mainQueueBlockedReport) } ?? mainQueueBlockedReport
        }
        if inTask {
            let check = Self.adding(Self.cancellationCheckInterval, to: Self.now)
            stop = stop.map { min($0, check) } ?? check
        }
        return stop
    }

    /// After a wake-up or a stop without the response: what to do next.
    private func afterStop(_ reported: inout Reported) -> Outcome? {
        if isOver { return .done }
        if inTask, withUnsafeCurrentTask(body: { $0?.isCancelled ?? false }) { return .taskCancelled }
        let now = Self.now
        if place == .insideMainQueueJob, !reported.mainQueueBlocked, now >= mainQueueBlockedReport {
            reported.mainQueueBlocked = true
            reportMainQueueBlocked(after: now - start)
        }
        if let deadline {
            return now >= deadline ? .timedOut : nil
        }
        if !reported.longWait, now >= longWaitReport {
            reported.longWait = true
            Self.reportLongWait(on: response)
        }
        return nil
    }

    /// Reports that a blocking wait on `response` has lasted longer than the threshold and goes on.
    static func reportLongWait(on response: Response<Value>) {
        let threshold = PendingResponse.seconds(
            .nanoseconds(Int(clamping: ResponseDiagnostics.longWaitThresholdNanoseconds))
        )
        ResponseDiagnostics.report(
            .longWait,
            "a blocking wait on \(response) has waited over \(threshold) "
                + "and goes on; if the work needs the thread or queue this wait blocks, it can never finish",
            file: response.file,
            line: response.line
        )
    }

    /// Reports that this wait, inside a main-queue job, has held the main queue for `waited`
    /// nanoseconds. Says what is known, not more: whether the work needs the main queue cannot be
    /// told from here.
    private func reportMainQueueBlocked(after waited: UInt64) {
        let seconds = PendingResponse.seconds(.nanoseconds(Int(clamping: waited)))
        ResponseDiagnostics.report(
            .mainQueueBlocked,
            "a blocking wait on \(response) inside a main-queue job is still waiting after \(seconds); "
                + "the main queue can run nothing else until it ends (only ResponseKit's own main-queue work "
                + "goes on), so if the work needs the main queue it will never finish (await get() instead, "
                + "or wait off the main queue)",
            file: response.file,
            line: response.line
        )
    }

    /// Sleeps on the semaphore until woken, or until the next stop.
    private func sleep(_ reported: Reported) -> Bool {
        guard let stop = nextStop(reported) else {
            waiter.semaphore.wait()
            return true
        }
        return waiter.semaphore.wait(timeout: .saturating(uptimeNanoseconds: stop)) == .success
    }

    /// Off the main queue: sleeps on the semaphore.
    func block() -> Outcome {
        if deadline == nil, !inTask {
            // Nothing to wake up for but the outcome: sleep with no timer, and let the watch
            // report a long wait (a timed sleep costs the kernel a timer per wait).
            let ticket = LongWaitWatch.watch(response, due: longWaitReport)
            defer { LongWaitWatch.unwatch(ticket) }
            while !response.isDone { waiter.semaphore.wait() }
            return .done
        }
        var reported = Reported()
        while true {
            _ = sleep(reported)
            if let outcome = afterStop(&reported) { return outcome }
        }
    }

    /// Inside a main-queue job: runs ResponseKit's main-queue jobs as they come, sleeping between.
    func runMainQueueJobs() -> Outcome {
        let previous = MainQueueJobs.park(waiter)
        defer { MainQueueJobs.unpark(restoring: previous) }
        var reported = Reported()
        while true {
            MainQueueJobs.runReadyJobs()
            if isOver { return .done }
            if sleep(reported) { continue }  // woken: a job to run, or the response is done
            if let outcome = afterStop(&reported) { return outcome }
        }
    }

    /// On the main thread outside any job: runs the main run loop, which drains the main queue.
    func runMainLoop() -> Outcome {
        var reported = Reported()
        while true {
            if isOver { return .done }
            let stop = nextStop(reported)
            if let stop, stop <= Self.now {
                if let outcome = afterStop(&reported) { return outcome }
                continue
            }
            let limit = stop.map { Date(timeIntervalSinceNow: Self.seconds(until: $0)) } ?? .distantFuture
            if !RunLoop.main.run(mode: .default, before: limit) {
                // The run loop cannot run here after all: run ResponseKit's jobs by hand.
                var insideJob = self
                insideJob.place = .insideMainQueueJob
                return insideJob.runMainQueueJobs()
            }
            if let outcome = afterStop(&reported) { return outcome }
        }
    }

    private static func seconds(until instant: UInt64) -> Double {
        let now = Self.now
        return instant > now ? Double(instant - now) / 1e9 : 0
    }
}
