import ResponseKit
import Testing

/// The one report of the jobs a test double (a `ManualExecutor`, a `ManualScheduler`) is left
/// with: made to the response checks when the checked test that made the double ends, or else
/// when the double is released with jobs that never ran, as EmbeddedEventLoop traps when freed
/// with tasks pending. Either way a test cannot pass with work it never ran.
///
/// The double numbers its jobs in the order they come; the report at the end of a test covers
/// every job numbered so far, so that a release after it reports only jobs that came later.
final class LeftoverJobs: Sendable {
    /// The double, as the report names it (`ManualExecutor`).
    private let double: String
    /// Where the test made the double.
    private let file: StaticString
    private let line: UInt
    /// The checked test the double was made in, if any: it hears of the jobs first.
    private let scope: ResponseCheckScope?
    /// Jobs numbered below it were reported when the checked test ended.
    private let reported = LockedBox.make(0)

    /// A report for a double made at `file`:`line`, in the checked test running now, if any.
    init(of double: String, madeAt file: StaticString, line: UInt) {
        self.double = double
        self.file = file
        self.line = line
        scope = ResponseCheckScope.current
    }

    /// Has the checked test the double was made in ask `double` what it is left with when it ends.
    func watch(_ double: some ResponseCheckScope.Watched) {
        scope?.watch(double)
    }

    /// The first job number not reported yet: jobs numbered below it were reported when the
    /// checked test ended.
    var firstUnreported: Int { reported.withLock { $0 } }

    /// The jobs left when the checked test ends, for `ResponseCheckScope.Watched.leftovers()`;
    /// none when there are none. Jobs numbered below `next` count as reported from then on.
    ///
    /// - Parameters:
    ///   - count: the jobs left.
    ///   - next: the number the double's next job will get.
    ///   - state: how the jobs wait (`queued`).
    ///   - advice: what the test should do with them.
    func atEndOfTest(
        _ count: Int,
        numberedBelow next: Int,
        state: String,
        advice: String
    ) -> [ResponseCheckScope.Leftover] {
        reported.withLock { $0 = max($0, next) }
        guard count > 0 else { return [] }
        let message = "\(madeAt) still has \(Self.jobs(count)) \(state) when the test ended (\(advice))"
        return [ResponseCheckScope.Leftover(message: message, file: "\(file)", line: line)]
    }

    /// Reports `count` jobs never run and never reported, the double being released: to the
    /// checked test it was made in while that test runs; else as an issue of the Swift Testing
    /// test running now; else as an XCTest failure (dropped by XCTest when none of its tests
    /// runs) and to `ResponseDiagnostics.handler`.
    ///
    /// - Parameters:
    ///   - count: the jobs never run and not reported when a checked test ended.
    ///   - state: how the jobs wait (`queued`).
    ///   - advice: what the test should have done with them.
    func atRelease(_ count: Int, state: String, advice: String) {
        guard count > 0 else { return }
        let diagnostic = ResponseDiagnostic(
            kind: .leftoverWork,
            message: "\(madeAt) was released with \(Self.jobs(count)) \(state), never run (\(advice))",
            file: "\(file)",
            line: line
        )
        if let scope, scope.receiveUnlessAllFinished(diagnostic) { return }
        let problem = ResponseCheckProblem(diagnostic)
        if !failRunningTest(
            problem.description, sourceLocation: problem.sourceLocation(near: Test.current?.sourceLocation.filePath),
            file: file, line: line)
        {
            ResponseDiagnostics.handler(diagnostic)
        }
    }

    private var madeAt: String { "\(double) made at \(file):\(line)" }

    private static func jobs(_ count: Int) -> String {
        count == 1 ? "1 job" : "\(count) jobs"
    }
}
