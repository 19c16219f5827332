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
/// executor is safe to submit to from any thread. End each test with `pendingCount == 0`: work
/// left queued is work the test never checked.
public final class ManualExecutor: CallbackExecutor {
    private let jobs = JobQueue()
    /// Where the test made it, for the response checks' report of jobs left in it.
    private let file: String
    private let line: UInt

    /// Makes an empty executor. Under the response checks (``ResponseChecksTrait``), jobs still
    /// queued when the test ends are a problem of the test.
    ///
    /// - Parameters:
    ///   - file: where it is made, for that report. Leave the default.
    ///   - line: where it is made, for that report. Leave the default.
    public init(file: StaticString = #fileID, line: UInt = #line) {
        self.file = "\(file)"
        self.line = line
        ResponseCheckScope.current?.watch(self)
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
}

extension ManualExecutor: ResponseCheckScope.Watched {
    /// Jobs never run, for the response checks.
    package func leftovers() -> [ResponseCheckScope.Leftover] {
        ResponseCheckScope.Leftover.jobs(
            pendingCount,
            leftIn: "ManualExecutor",
            madeAt: file,
            line: line,
            state: "queued",
            advice: "run them with runAll(), or the callbacks they deliver never run"
        )
    }
}
