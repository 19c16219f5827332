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
/// final class GreetingTests: ResponseChecksTestCase {
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
/// Override ``allowedResponseProblems`` to accept some kinds.
open class ResponseChecksTestCase: XCTestCase {
    /// Kinds of problem that are not failures in this test case's tests; none by default.
    open var allowedResponseProblems: Set<ResponseDiagnostic.Kind> { [] }

    /// Runs the test under the checks, then records each problem found as its failure.
    override open func invokeTest() {
        let scope = ResponseCheckScope()
        scope.run { super.invokeTest() }
        for problem in ResponseCheckProblem.problems(in: scope.finish(), allowing: allowedResponseProblems) {
            recordFailure(
                withDescription: problem.description,
                inFile: problem.file,
                atLine: Int(problem.line),
                expected: true
            )
        }
    }
}
