import Dispatch
import Foundation
import ResponseKit
import ResponseKitTesting
import Testing

/// Serialized: two tests change process-wide settings (the long-wait threshold and the handler).
@Suite(.serialized)
struct ResponseDiagnosticsTests {
    init() { startRecordingDiagnostics() }

    // MARK: - resolved twice

    @Test func resolvingTwice_isReported_withBothSites() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let creationLine = UInt(#line) - 1
        resolver.succeed(1)
        resolver.succeed(2)
        let secondLine = #line - 1

        let reports = diagnostics(forResponseCreatedAt: creationLine)
        #expect(reports.map(\.kind) == [.resolvedTwice])
        let report = try #require(reports.first)
        #expect(report.message.contains("succeeded with 1"))
        #expect(report.message.contains("ResponseDiagnosticsTests.swift:\(secondLine)"))
        #expect(try response.value == 1)
    }

    @Test func failingAfterSuccess_isReported() {
        let (_, resolver) = Response<Int>.pending(on: .immediate)
        let creationLine = UInt(#line) - 1
        resolver.succeed(1)
        resolver.fail(TestError())
        #expect(diagnostics(forResponseCreatedAt: creationLine).map(\.kind) == [.resolvedTwice])
    }

    @Test func cancellingADoneResponse_isNotReported() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let creationLine = UInt(#line) - 1
        resolver.succeed(1)
        response.cancel()
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    @Test func resolvingAfterCancel_isNotReported() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let creationLine = UInt(#line) - 1
        response.cancel()
        resolver.succeed(1)  // the work finished anyway: a normal race, not misuse
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    // MARK: - long waits

    @Test func longBlockingWait_isReported_andGoesOn() {
        Self.expectOneLongWaitReport { response in (try? response.value) ?? -1 }
    }

    @Test func longBlockingWaitOutsideAnyTask_isReported_andGoesOn() {
        // On a Dispatch thread there is no task: the wait sleeps with no timer of its own, and the
        // long-wait watch reports it.
        Self.expectOneLongWaitReport { response in
            let values = Recorder<Int>()
            let finished = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                values.record((try? response.value) ?? -1)
                finished.signal()
            }
            // Generous: only matters when the wait never ends.
            #expect(finished.wait(timeout: .now() + 60) == .success)
            return values.values.first ?? -1
        }
    }

    /// Reads a pending response with `read`, a blocking wait with no timeout that only the
    /// long-wait report ends (the report resolves it with 5: no timing guess involved), and
    /// expects the value and exactly one report for that response. The response is made as if
    /// at the caller's line, so that each test finds its own reports.
    static func expectOneLongWaitReport(line: UInt = #line, readingWith read: (Response<Int>) -> Int) {
        let previousThreshold = ResponseDiagnostics.longWaitThreshold
        defer { ResponseDiagnostics.longWaitThreshold = previousThreshold }
        ResponseDiagnostics.longWaitThreshold = .milliseconds(10)
        let (response, resolver) = Response<Int>.pending(line: line)
        let creationLine = line
        let watch: @Sendable (ResponseDiagnostic) -> Void = { diagnostic in
            if diagnostic.kind == .longWait, diagnostic.line == creationLine { resolver.succeed(5) }
        }
        // A safety net that only matters when the report never comes: the wait then fails the
        // test after a generous 30 s instead of hanging the run (cancelling a done response is a no-op).
        // Weak, so that the net does not keep the response alive after the test: at exit,
        // LeakSanitizer cannot follow a live object to its weak-reference side table, which a
        // response gets when another test has tracking on.
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { [weak response] in response?.cancel() }

        #expect(withDiagnosticWatch(watch) { read(response) } == 5)
        let reports = diagnostics(forResponseCreatedAt: creationLine)
        #expect(reports.map(\.kind) == [.longWait])
        #expect(reports.first?.message.contains("can never finish") == true)
    }

    @Test func waitWithTimeout_isNeverReportedAsLong() {
        let previousThreshold = ResponseDiagnostics.longWaitThreshold
        defer { ResponseDiagnostics.longWaitThreshold = previousThreshold }
        ResponseDiagnostics.longWaitThreshold = .milliseconds(1)
        let (response, responseResolver) = Response<Int>.pending()
        let creationLine = UInt(#line) - 1
        defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
        #expect(throws: ResponseError.timedOut) { try response.wait(timeout: .milliseconds(20)) }
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    // MARK: - unobserved failures

    @Test func failureNobodyObserved_isReported_withTheCreationSite() throws {
        var creationLine: UInt = 0
        do {
            let (_, resolver) = Response<Int>.pending(on: .immediate)
            creationLine = #line - 1
            resolver.fail(TestError(code: 4))
        }
        let reports = diagnostics(forResponseCreatedAt: creationLine)
        #expect(reports.map(\.kind) == [.unobservedFailure])
        let report = try #require(reports.first)
        #expect(report.message.contains("TestError(code: 4)"))
        #expect(report.message.contains("ResponseDiagnosticsTests.swift:\(creationLine)"))
    }

    @Test func observedFailures_areNotReported() {
        var lines: [UInt] = []
        do {
            let viaCallback = Response<Int>.failed(TestError(), on: .immediate)
            lines.append(#line - 1)
            viaCallback.onFailure { _ in }
            let viaResult = Response<Int>.failed(TestError(), on: .immediate)
            lines.append(#line - 1)
            viaResult.onResult { _ in }
            let viaBlocking = Response<Int>.failed(TestError(), on: .immediate)
            lines.append(#line - 1)
            _ = viaBlocking.error
            let viaAlways = Response<Int>.failed(TestError(), on: .immediate)
            lines.append(#line - 1)
            _ = viaAlways.always { _ in }.error
            let viaChain = Response<Int>.failed(TestError(), on: .immediate)
            lines.append(#line - 1)
            _ = viaChain.map { $0 + 1 }.recover { _ in 0 }.error
        }
        #expect(lines.count == 5)
        #expect(lines.flatMap { diagnostics(forResponseCreatedAt: $0) }.isEmpty)
    }

    @Test func awaitedFailure_isNotReported() async {
        var creationLine: UInt = 0
        do {
            let response = Response<Int>.failed(TestError(), on: .immediate)
            creationLine = #line - 1
            _ = await response.getResult()
        }
        #expect(creationLine > 0)
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    @Test func aTimedOutWait_doesNotCountAsObservingTheFailure() {
        var creationLine: UInt = 0
        do {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            creationLine = #line - 1
            _ = try? response.wait(timeout: .milliseconds(1))
            resolver.fail(TestError())
        }
        #expect(diagnostics(forResponseCreatedAt: creationLine).map(\.kind) == [.unobservedFailure])
    }

    actor Sink {
        var values: [Int] = []
        func observe(_ response: Response<Int>) {
            response.onCompletion(isolatedTo: self) { sink, value in sink.values.append(value) }
        }
    }

    @Test func aFailureSeenOnlyByASuccessCallback_isReported_alsoOnAnActor() async {
        let sink = Sink()
        var lines: [UInt] = []
        do {
            let (plain, plainResolver) = Response<Int>.pending(on: .immediate)
            lines.append(#line - 1)
            plain.onCompletion { _ in }
            plainResolver.fail(TestError(code: 5))
            let (onActor, onActorResolver) = Response<Int>.pending(on: .immediate)
            lines.append(#line - 1)
            await sink.observe(onActor)
            onActorResolver.fail(TestError(code: 5))
        }
        #expect(
            lines.map { diagnostics(forResponseCreatedAt: $0).map(\.kind) } == [
                [.unobservedFailure], [.unobservedFailure],
            ])
        #expect(await sink.values.isEmpty)
    }

    @Test func unobservedFailure_isReportedAtTheEndOfAChain_notInTheMiddle() {
        var sourceLine: UInt = 0
        var endLine: UInt = 0
        do {
            let source = Response<Int>.failed(TestError(), on: .immediate)
            sourceLine = #line - 1
            _ = source.map { $0 * 2 }
            endLine = #line - 1
        }
        #expect(diagnostics(forResponseCreatedAt: sourceLine).isEmpty)
        #expect(diagnostics(forResponseCreatedAt: endLine).map(\.kind) == [.unobservedFailure])
    }

    @Test func cancelledResponses_areNotReportedAsUnobserved() {
        var creationLine: UInt = 0
        do {
            let (response, responseResolver) = Response<Int>.pending(on: .immediate)
            creationLine = #line - 1
            defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
            response.cancel()
        }
        #expect(creationLine > 0)
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    @Test func alwaysAtTheEndOfAChain_countsAsObservingTheFailure() {
        var creationLine: UInt = 0
        do {
            let response = Response<Int>.failed(TestError(), on: .immediate)
            creationLine = #line - 1
            _ = response.always { _ in }
        }
        #expect(creationLine > 0)
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    @Test func unobservedFailure_withAMultiLineError_isStillOneLine() throws {
        struct Verbose: Error, CustomStringConvertible {
            var description: String { "first line\nsecond line" }
        }
        var creationLine: UInt = 0
        do {
            let (_, resolver) = Response<Int>.pending(on: .immediate)
            creationLine = #line - 1
            resolver.fail(Verbose())
        }
        let report = try #require(diagnostics(forResponseCreatedAt: creationLine).first)
        #expect(!report.description.contains("\n"))
        #expect(report.message.contains("first line second line"))
    }

    // MARK: - blocking the main queue off the main thread

    @Test func blockingInsideAMainQueueJob_onWorkFinishedOffTheMainQueue_isNotReported() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let creationLine = UInt(#line) - 1
        let finished = Response<Int>.pending(on: .immediate)
        DispatchQueue.main.async {
            // A global queue finishes the work 50 ms later: the wait ends through work off the
            // main queue, which is not a deadlock, whatever thread runs this job.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { resolver.succeed(3) }
            finished.resolver.resolve(with: response.result)
        }
        #expect(try finished.response.value == 3)
        // (Long waits left out: another test may lower the process-wide threshold meanwhile.)
        #expect(diagnostics(forResponseCreatedAt: creationLine).filter { $0.kind != .longWait }.isEmpty)
    }

    @Test func mainQueueBlockedThreshold_isHalfASecondByDefault() {
        #expect(ResponseDiagnostics.mainQueueBlockedThreshold == .milliseconds(500))
    }

    @Test func blockingInsideAMainQueueJobOffTheMainThread_onWorkThatCannotFinish_isReported() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let creationLine = UInt(#line) - 1
        let watch: @Sendable (ResponseDiagnostic) -> Void = { diagnostic in
            if diagnostic.kind == .mainQueueBlocked, diagnostic.line == creationLine { resolver.succeed(3) }
        }
        // Fails the test after a generous 30 s instead of hanging it, should the report never come.
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { [weak response] in response?.cancel() }
        let finished = Response<Bool>.pending(on: .immediate)
        let ranOnMainThread = try withDiagnosticWatch(watch) {
            DispatchQueue.main.async {
                // Under XCTest this job runs on the main thread, which can keep the main queue
                // running; under Swift Testing on Linux it runs on another thread: that is the case.
                let onMainThread = Thread.isMainThread
                _ = try? response.value
                finished.resolver.succeed(onMainThread)
            }
            return try finished.response.value
        }
        let reports = diagnostics(forResponseCreatedAt: creationLine).map(\.kind)
        #expect(reports == (ranOnMainThread ? [] : [.mainQueueBlocked]))
        #expect(response.isDone || ranOnMainThread)
    }

    // MARK: - the hook

    @Test func diagnosticDescription_isOneLine() {
        let diagnostic = ResponseDiagnostic(kind: .resolvedTwice, message: "m", file: "f.swift", line: 3)
        #expect(diagnostic.description == "ResponseKit resolvedTwice: m")
    }
}
