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
/// Works in XCTest files without `import Testing`: its defaults are plain literals.
///
/// Other problems of responses made in `body` stay the test's (under ``ResponseChecksTrait`` or
/// ``ResponseChecksTestCase``), or go to `ResponseDiagnostics.handler` outside the
/// checks. No `kind` diagnostic by the time `body` returns is a failure of the test: an issue in
/// Swift Testing, an `XCTFail` in XCTest.
///
/// - Parameters:
///   - kind: the kind of diagnostic `body` must cause.
///   - fileID: where to report a missing diagnostic. Leave the default.
///   - filePath: where to report a missing diagnostic. Leave the default.
///   - line: where to report a missing diagnostic. Leave the default.
///   - column: where to report a missing diagnostic. Leave the default.
///   - body: the code that provokes the problem.
/// - Returns: what `body` returns.
@discardableResult
public func expectDiagnostic<Output>(
    _ kind: ResponseDiagnostic.Kind,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: () throws -> Output
) rethrows -> Output {
    let expectation = DiagnosticExpectation(kind)
    let result = try expectation.scope.run(body)
    expectation.end(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return result
}

/// `expectDiagnostic(_:_:)` for async code.
///
/// - Parameters:
///   - kind: the kind of diagnostic `body` must cause.
///   - fileID: where to report a missing diagnostic. Leave the default.
///   - filePath: where to report a missing diagnostic. Leave the default.
///   - line: where to report a missing diagnostic. Leave the default.
///   - column: where to report a missing diagnostic. Leave the default.
///   - body: the code that provokes the problem.
/// - Returns: what `body` returns.
@discardableResult
public func expectDiagnostic<Output>(
    _ kind: ResponseDiagnostic.Kind,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: () async throws -> Output
) async rethrows -> Output {
    let expectation = DiagnosticExpectation(kind)
    let result = try await expectation.scope.runAsync(body)
    expectation.end(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
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
    func end(at site: CallSite) {
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
        failRunningTest(message, sourceLocation: site.sourceLocation, file: site.filePath, line: site.line)
    }
}

/// Where `expectDiagnostic` was called, in literals that need no `import Testing` at the call site
/// (a `#_sourceLocation` default did: `no macro named '_sourceLocation'` in a plain XCTest file).
struct CallSite {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// The site for Swift Testing: its real file path, so IDEs and CI annotations can open it.
    var sourceLocation: SourceLocation {
        SourceLocation(
            fileID: fileID,
            filePath: "\(filePath)",
            line: max(Int(clamping: line), 1),
            column: max(Int(clamping: column), 1)
        )
    }
}
