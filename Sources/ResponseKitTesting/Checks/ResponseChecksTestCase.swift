import ResponseKit
import XCTest

/// An `XCTestCase` whose every test runs under ResponseKit's response checks: the XCTest
/// counterpart of the ``ResponseChecksTrait`` trait. Subclass it instead of `XCTestCase`.
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import XCTest
///
/// nonisolated final class GreetingTests: ResponseChecksTestCase {
///     func testTheGreeting_namesTheUser() throws {
///         let greeting = Response<String>.succeeded("Ada").map { "Hello, \($0)" }
///         XCTAssertEqual(try greeting.value, "Hello, Ada")
///     }
/// }
/// ```
///
/// Each test (its `setUp`, body and `tearDown`) runs in a scope of its own: a diagnostic about a
/// response it made is a failure of the test, at the line that made the response; so is a
/// response still pending and referenced at its end, and work left in a `ManualExecutor`,
/// `ManualScheduler` or ``StubbedCalls`` it made (at the end, or when it was released before).
/// Override ``allowedResponseProblems`` to accept some kinds. In a target on the main actor by
/// default (Xcode 26's settings), declare the subclass `nonisolated`, as XCTest's own methods are.
///
/// No test hangs in silence: a blocking read that may never end is written to standard error at
/// once, naming the test and the response, and a read with no timeout still waiting at
/// ``responseWaitLimit`` throws `ResponseError.waitLimitExceeded`, so that the test ends as a
/// failure. Override it for a test that waits long on purpose.
open class ResponseChecksTestCase: XCTestCase {
    /// Kinds of problem that are not failures in this test case's tests; none by default.
    open var allowedResponseProblems: Set<ResponseDiagnostic.Kind> { [] }

    /// How long a blocking read with no timeout in a test may wait before it gives up with
    /// `ResponseError.waitLimitExceeded`, so that the test ends; `nil` (the default) for
    /// `ResponseDiagnostics.longWaitThreshold`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    open var responseWaitLimit: Duration? { nil }

    /// Runs the test under the checks, then records each problem found as its failure.
    override open func invokeTest() {
        var waitLimit: UInt64?
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            waitLimit = responseWaitLimit.map { max($0, .milliseconds(1)).saturatingNanoseconds }
        }
        let scope = ResponseCheckScope(testName: name, waitLimit: waitLimit)
        scope.run { super.invokeTest() }
        for problem in ResponseCheckProblem.problems(in: scope.finish(), allowing: allowedResponseProblems) {
            recordFailure(
                withDescription: problem.description,
                inFile: SourceFilePaths.path(of: problem.file) ?? problem.file,
                atLine: Int(problem.line),
                expected: true
            )
        }
    }
}
