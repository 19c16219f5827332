import Dispatch
import Foundation

/// One blocking wait, in the way its thread allows:
///
/// - **On the main thread, outside any main-queue job**: runs `RunLoop.main`, which drains
///   `DispatchQueue.main`, so every main-queue job (ResponseKit's and the app's) still runs.
/// - **Inside a main-queue job** (a `DispatchQueue.main` block, a `@MainActor` task, a `.main`
///   callback run during another wait), on any thread: the main queue cannot run anything else
///   until the job returns, so the wait runs ResponseKit's own main-queue jobs
///   (``MainQueueJobs``) itself, and reports at once, naming the response, that other main-queue
///   work cannot run meanwhile.
/// - **Elsewhere**: sleeps on a semaphore.
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
        /// main-queue job); elsewhere, being inside a main-queue job is asked of Dispatch.
        static var current: Place {
            if MainQueue.isMainThread { return .mainRunLoop }
            if MainQueue.isInsideJob { return .insideMainQueueJob }
            return .elsewhere
        }
    }

    /// How often a wait inside a task looks at the task's cancellation, in nanoseconds.
    private static var cancellationCheckInterval: UInt64 { 20_000_000 }

    /// Now, in uptime nanoseconds.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// When a wait with no deadline is reported as long.
    private var longWaitReport: UInt64 {
        Self.adding(ResponseDiagnostics.longWaitThresholdNanoseconds, to: start)
    }

    /// `time + interval`, saturating.
    static func adding(_ interval: UInt64, to time: UInt64) -> UInt64 {
        let (sum, overflow) = time.addingReportingOverflow(interval)
        return overflow ? .max : sum
    }

    func run(in place: Place) -> Outcome {
        switch place {
        case .mainRunLoop: runMainLoop()
        case .insideMainQueueJob: runMainQueueJobs()
        case .elsewhere: block()
        }
    }

    /// When to stop waiting next: the deadline, the moment to report a long wait, or the next
    /// look at the task's cancellation, whichever comes first.
    private func nextStop(warned: Bool) -> UInt64? {
        var stop = deadline ?? (warned ? nil : longWaitReport)
        if inTask {
            let check = Self.adding(Self.cancellationCheckInterval, to: Self.now)
            stop = stop.map { min($0, check) } ?? check
        }
        return stop
    }

    /// After a wake-up or a stop without the response: what to do next.
    private func afterStop(warned: inout Bool) -> Outcome? {
        if response.isDone { return .done }
        if inTask, withUnsafeCurrentTask(body: { $0?.isCancelled ?? false }) { return .taskCancelled }
        if let deadline {
            return Self.now >= deadline ? .timedOut : nil
        }
        if !warned, Self.now >= longWaitReport {
            warned = true
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

    /// Sleeps on the semaphore until woken, or until the next stop.
    private func sleep(warned: Bool) -> Bool {
        guard let stop = nextStop(warned: warned) else {
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
        var warned = false
        while true {
            _ = sleep(warned: warned)
            if let outcome = afterStop(warned: &warned) { return outcome }
        }
    }

    /// Inside a main-queue job: runs ResponseKit's main-queue jobs as they come, sleeping between.
    func runMainQueueJobs() -> Outcome {
        let previous = MainQueueJobs.park(waiter)
        defer { MainQueueJobs.unpark(restoring: previous) }
        var warned = false
        var reported = false
        while true {
            MainQueueJobs.runReadyJobs()
            if response.isDone { return .done }
            if !reported {
                reported = true
                ResponseDiagnostics.report(
                    .mainQueueBlocked,
                    "a blocking wait on \(response) runs inside a main-queue job, so the main queue can run "
                        + "nothing else until it ends; only ResponseKit's own main-queue work goes on. If the "
                        + "work needs other main-queue work, it can never finish (await get() instead, or wait "
                        + "off the main queue)",
                    file: response.file,
                    line: response.line
                )
            }
            if sleep(warned: warned) { continue }  // woken: a job to run, or the response is done
            if let outcome = afterStop(warned: &warned) { return outcome }
        }
    }

    /// On the main thread outside any job: runs the main run loop, which drains the main queue.
    func runMainLoop() -> Outcome {
        var warned = false
        while true {
            if response.isDone { return .done }
            let stop = nextStop(warned: warned)
            if let stop, stop <= Self.now {
                if let outcome = afterStop(warned: &warned) { return outcome }
                continue
            }
            let limit = stop.map { Date(timeIntervalSinceNow: Self.seconds(until: $0)) } ?? .distantFuture
            if !RunLoop.main.run(mode: .default, before: limit) {
                // The run loop cannot run here after all: run ResponseKit's jobs by hand.
                return runMainQueueJobs()
            }
            if let outcome = afterStop(warned: &warned) { return outcome }
        }
    }

    private static func seconds(until instant: UInt64) -> Double {
        let now = Self.now
        return instant > now ? Double(instant - now) / 1e9 : 0
    }
}
