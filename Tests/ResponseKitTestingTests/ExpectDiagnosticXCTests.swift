// Deliberately without `import Testing`: `expectDiagnostic` must compile in a plain XCTest file
// (issue 33, 5: its `#_sourceLocation` default needed the macro's module at the call site).
import ResponseKit
import ResponseKitTesting
import XCTest

final class ExpectDiagnosticXCTests: ResponseChecksTestCase {
    func testExpectDiagnostic_takesTheExpectedProblem_inAPlainXCTestFile() {
        let response = expectDiagnostic(.abandoned) {
            Response<Int>.pending(on: .immediate).response
        }
        XCTAssertEqual(response.error as? ResponseError, .abandoned)
    }
}
