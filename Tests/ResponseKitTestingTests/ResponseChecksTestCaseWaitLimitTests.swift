import ResponseKit
import ResponseKitTesting
import XCTest

/// The wait limit in XCTest: a read that never ends throws at `responseWaitLimit`, so the test
/// ends (issue 33, 2). On the main thread, where XCTest runs tests, the read runs the run loop.
final class ResponseChecksTestCaseWaitLimitTests: ResponseChecksTestCase {
    override var allowedResponseProblems: Set<ResponseDiagnostic.Kind> { [.longWait] }
    override var responseWaitLimit: Duration? { .milliseconds(200) }

    func testAReadThatNeverEnds_throwsAtTheWaitLimit() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        XCTAssertThrowsError(try response.value) { error in
            XCTAssertEqual(error as? ResponseError, .waitLimitExceeded)
        }
        resolver.succeed(1)
    }
}
