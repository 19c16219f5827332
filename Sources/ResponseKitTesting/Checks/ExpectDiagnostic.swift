import ResponseKit
import Testing

/// Runs `body`, expecting ResponseKit to report at least one `kind` diagnostic about a response
/// made in it, as a test that provokes a problem on purpose does; such diagnostics are taken, so
/// they are no problem of the test.
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import Testing
///
/// @Test(.responseChecks) func aDroppedResolver_failsTheResponse() {
///     let response = expectDiagnostic(.abandoned) {
///         Response<Int>.pending(on: .immediate).response   // its resolver goes at once
///     }
///     #expect(response.error as? ResponseError == .abandoned)
/// }
/// ```
///
/// Other problems of responses made in `body` stay the test's (under ``ResponseChecksTrait`` or
/// ``ResponseChecksTestCase``), or go to `ResponseDiagnostics.handler` outside the
/// checks. No `kind` diagnostic by the time `body` returns is a failure of the test: an issue in
/// Swift Testing, an `XCTFail` in XCTest.
///
/// - Parameters:
///   - kind: the kind of diagnostic `body` must cause.
///   - file: for XCTest, where to report a missing diagnostic. Leave the default.
///   - line: for XCTest, where to report a missing diagnostic. Leave the default.
///   - sourceLocation: for Swift Testing, where to report it. Leave the default.
///   - body: the code that provokes the problem.
/// - Returns: what `body` returns.
@discardableResult
public func expectDiagnostic<Output>(
    _ kind: ResponseDiagnostic.Kind,
    file: StaticString = #filePath,
    line: UInt = #line,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Output
) rethrows -> Output {
    let expectation = DiagnosticExpectation(kind)
    let result = try expectation.scope.run(body)
    expectation.end(file: file, line: line, sourceLocation: sourceLocation)
    return result
}

/// `expectDiagnostic(_:_:)` for async code.
///
/// - Parameters:
///   - kind: the kind of diagnostic `body` must cause.
///   - file: for XCTest, where to report a missing diagnostic. Leave the default.
///   - line: for XCTest, where to report a missing diagnostic. Leave the default.
///   - sourceLocation: for Swift Testing, where to report it. Leave the default.
///   - body: the code that provokes the problem.
/// - Returns: what `body` returns.
@discardableResult
public func expectDiagnostic<Output>(
    _ kind: ResponseDiagnostic.Kind,
    file: StaticString = #filePath,
    line: UInt = #line,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Output
) async rethrows -> Output {
    let expectation = DiagnosticExpectation(kind)
    let result = try await expectation.scope.runAsync(body)
    expectation.end(file: file, line: line, sourceLocation: sourceLocation)
    return result
}

/// An expectation's scope, inside the test's own when there is one, and what ends it.
private struct DiagnosticExpectation {
    let kind: ResponseDiagnostic.Kind
    let scope = ResponseCheckScope()

    init(_ kind: ResponseDiagnostic.Kind) {
        self.kind = kind
    }

    /// Takes the expected diagnostics, passes the others on, and fails the test when none came.
    /// The scope's responses and doubles go to the test's scope, to be checked when it ends.
    func end(file: StaticString, line: UInt, sourceLocation: SourceLocation) {
        let findings = scope.finish(handingOverToParent: true)
        let others = findings.diagnostics.filter { $0.kind != kind }
        for diagnostic in others {
            if let parent = scope.parent {
                parent.receive(diagnostic)
            } else {
                ResponseDiagnostics.handler(diagnostic)
            }
        }
        guard findings.diagnostics.count == others.count else { return }
        let message = "expected ResponseKit to report a \(kind) diagnostic, and it reported none"
        failRunningTest(message, sourceLocation: sourceLocation, file: file, line: line)
    }
}
