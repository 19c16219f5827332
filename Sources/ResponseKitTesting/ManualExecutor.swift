import ResponseKit

/// An executor that runs callbacks only when a test says so.
///
/// ``execute(_:)`` only enqueues. ``runAll()`` drains the queue (including jobs that running jobs
/// enqueue), ``runNext()`` runs one job, so a test reads as a proof: not run, `runAll()`, ran.
/// Use it through ``executor`` (or `ResponseExecutor.custom(manual)`):
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import Testing
///
/// @Test func presenterShowsNameOnlyAfterDelivery() {
///     let manual = ManualExecutor()
///     let (response, resolver) = Response<String>.pending(on: manual.executor)
///     let names = Recorder<String>()
///     response.onCompletion { names.record($0) }
///
///     resolver.succeed("Ada")
///     #expect(names.values.isEmpty)   // resolved, not yet delivered
///
///     #expect(manual.runAll() == 1)
///     #expect(names.values == ["Ada"])
///     #expect(manual.pendingCount == 0)
/// }
/// ```
///
/// Jobs run on the thread that calls ``runAll()`` or ``runNext()``, in submission order. The
/// executor is safe to submit to from any thread.
///
/// ## Jobs left behind
///
/// Work left queued is work the test never checked, so a test cannot pass with it, as SwiftNIO's
/// `EmbeddedEventLoop` traps when freed with tasks pending. Jobs still queued when the executor
/// is released are reported, naming the line that made it and how many are left:
///
/// - in a test under the response checks (``ResponseChecksTrait``, ``ResponseChecksTestCase``,
///   ``ResponseChecks``), as a `leftoverWork` problem of that test, as are jobs still queued
///   when it ends (reported once: the release of an executor whose jobs the checks reported
///   at the end of its test says nothing more);
/// - else in a Swift Testing test, as an issue of the test running the release (`withKnownIssue`
///   catches it);
/// - else as an XCTest failure of the test running, and to `ResponseDiagnostics.handler` (which
///   outside any test is the only report).
///
/// A queued job that holds the executor itself (a step run `on:` this executor, for a response
/// that delivers here) keeps it alive until the job runs or is dropped: such an executor is never
/// released, so only the response checks, which look when the test ends, report its jobs.
///
/// A test that means to leave jobs unrun says so with ``discardPendingJobs()``:
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import Testing
///
/// @Test func aDroppedDelivery_neverRuns() {
///     let manual = ManualExecutor()
///     let (response, resolver) = Response<String>.pending(on: manual.executor)
///     let names = Recorder<String>()
///     response.onCompletion { names.record($0) }
///     resolver.succeed("Ada")
///
///     #expect(manual.discardPendingJobs() == 1)   // the delivery, dropped on purpose
///     #expect(names.values.isEmpty)
/// }
/// ```
public final class ManualExecutor: CallbackExecutor {
    private let jobs = JobQueue()
    /// Where the test made it, and the one report of the jobs it is left with.
    private let leftoverReport: LeftoverJobs

    /// Makes an empty executor.
    ///
    /// - Parameters:
    ///   - file: where it is made, for the report of jobs left in it. Leave the default.
    ///   - line: where it is made, for that report. Leave the default.
    public init(file: StaticString = #fileID, line: UInt = #line) {
        leftoverReport = LeftoverJobs(of: "ManualExecutor", madeAt: file, line: line)
        leftoverReport.watch(self)
    }

    /// Reports the jobs never run, unless the response checks reported them when the test ended.
    deinit {
        let (count, next) = jobs.countAndNextNumber
        // The jobs waiting are the last `count` pushed; those numbered from `firstUnreported` on
        // came after the checks' report, if there was one.
        let unreported = min(count, next - leftoverReport.firstUnreported)
        leftoverReport.atRelease(unreported, state: "queued", advice: Self.advice)
    }

    /// The executor to pass to `Response.pending(on:)`.
    public var executor: ResponseExecutor { .custom(self) }

    /// Enqueues `job`; it runs at the next ``runNext()`` or ``runAll()``.
    ///
    /// - Parameter job: the callback delivery.
    public func execute(_ job: @escaping @Sendable () -> Void) {
        jobs.push(job)
    }

    /// How many jobs wait to run.
    public var pendingCount: Int { jobs.count }

    /// Runs the oldest queued job, if any.
    ///
    /// - Returns: `true` when a job ran.
    @discardableResult
    public func runNext() -> Bool {
        guard let job = jobs.pop() else { return false }
        job()
        return true
    }

    /// Runs queued jobs until none are left, including jobs enqueued while running.
    ///
    /// - Returns: how many jobs ran.
    @discardableResult
    public func runAll() -> Int {
        var count = 0
        while runNext() { count += 1 }
        return count
    }

    /// Drops every queued job without running it: for a test that means to leave work undone,
    /// which the executor would otherwise report when it is released (see "Jobs left behind").
    ///
    /// Each job is freed as it is dropped, and what it held goes with it: a dropped resolver
    /// fails its response as abandoned, which may queue a delivery here; jobs queued that way are
    /// dropped too.
    ///
    /// - Returns: how many jobs were dropped.
    @discardableResult
    public func discardPendingJobs() -> Int {
        var count = 0
        // Each popped job is freed at the end of the condition, outside the queue's lock.
        while jobs.pop() != nil { count += 1 }
        return count
    }

    private static let advice = "run them with runAll(), or drop them with discardPendingJobs() if the test means to"
}

extension ManualExecutor: ResponseCheckScope.Watched {
    /// Jobs never run, for the response checks.
    package func leftovers() -> [ResponseCheckScope.Leftover] {
        let (count, next) = jobs.countAndNextNumber
        return leftoverReport.atEndOfTest(count, numberedBelow: next, state: "queued", advice: Self.advice)
    }
}
