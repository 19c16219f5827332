import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

struct ResponseDiagnosticsTests {
    @Test func resolvingTwice_isReported_withBothSites() throws {
        try withRecordedDiagnostics { diagnostics throws in
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let creationLine = UInt(#line) - 1
            resolver.succeed(1)
            resolver.succeed(2); let secondLine = #line

            let reports = diagnostics.values.filter { $0.line == creationLine }
            #expect(reports.count == 1)
            let report = try #require(reports.first)
            #expect(report.kind == .resolvedTwice)
            #expect(report.file.hasSuffix("ResponseDiagnosticsTests.swift"))
            #expect(report.message.contains("succeeded with 1"))
            #expect(report.message.contains("ResponseDiagnosticsTests.swift:\(secondLine)"))
            #expect(try response.value == 1)
        }
    }

    @Test func failingAfterSuccess_isReported() throws {
        try withRecordedDiagnostics { diagnostics throws in
            let (_, resolver) = Response<Int>.pending(on: .immediate)
            let creationLine = UInt(#line) - 1
            resolver.succeed(1)
            resolver.fail(TestError())
            #expect(diagnostics.values.filter { $0.line == creationLine }.map(\.kind) == [.resolvedTwice])
        }
    }

    @Test func cancellingADoneResponse_isNotReported() throws {
        try withRecordedDiagnostics { diagnostics throws in
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let creationLine = UInt(#line) - 1
            resolver.succeed(1)
            response.cancel()
            #expect(diagnostics.values.filter { $0.line == creationLine }.isEmpty)
        }
    }

    @Test func longBlockingWait_isReported_andGoesOn() throws {
        try withRecordedDiagnostics { diagnostics throws in
            let previousThreshold = ResponseDiagnostics.longWaitThreshold
            ResponseDiagnostics.longWaitThreshold = .milliseconds(10)
            defer { ResponseDiagnostics.longWaitThreshold = previousThreshold }

            let (response, resolver) = Response<Int>.pending()
            let creationLine = UInt(#line) - 1
            // Resolve only once the wait has reported itself: no timing guess involved.
            let previous = ResponseDiagnostics.handler
            ResponseDiagnostics.handler = { diagnostic in
                previous(diagnostic)
                if diagnostic.kind == .longWait, diagnostic.line == creationLine { resolver.succeed(5) }
            }

            #expect(try response.value == 5)
            let reports = diagnostics.values.filter { $0.line == creationLine }
            #expect(reports.map(\.kind) == [.longWait])
            #expect(reports.first?.message.contains("can never finish") == true)
        }
    }

    @Test func waitWithTimeout_isNeverReportedAsLong() throws {
        try withRecordedDiagnostics { diagnostics throws in
            let previousThreshold = ResponseDiagnostics.longWaitThreshold
            ResponseDiagnostics.longWaitThreshold = .milliseconds(1)
            defer { ResponseDiagnostics.longWaitThreshold = previousThreshold }
            let (response, _) = Response<Int>.pending()
            let creationLine = UInt(#line) - 1
            #expect(throws: ResponseError.timedOut) { try response.wait(timeout: .milliseconds(20)) }
            #expect(diagnostics.values.filter { $0.line == creationLine }.isEmpty)
        }
    }

    @Test func diagnosticDescription_isOneLine() {
        let diagnostic = ResponseDiagnostic(kind: .resolvedTwice, message: "m", file: "f.swift", line: 3)
        #expect(diagnostic.description == "ResponseKit resolvedTwice: m")
        #expect(!diagnostic.description.contains("\n"))
    }
}
