import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// Opt-in tracking lists the responses still pending, with where they were made; its watchdog
/// reports each one pending too long, once. Serialized: tracking is one switch for the process
/// (other suites' responses made meanwhile are tracked too; each test looks at its own lines).
@Suite(.serialized)
struct ResponseTrackingTests {
    init() { startRecordingDiagnostics() }

    @Test func whenOff_aPendingResponseIsNotListed() {
        ResponseTracking.stop()
        let line: UInt = #line + 1
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime((response, resolver)) {} }
        #expect(!ResponseTracking.isEnabled)
        #expect(listed(line: line) == nil)
    }

    @Test func aPendingResponse_isListed_withItsSiteExecutorAndObservers() throws {
        ResponseTracking.start()
        defer { ResponseTracking.stop() }
        let line: UInt = #line + 1
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }

        let fresh = try #require(listed(line: line))
        #expect(fresh.file == #fileID)
        #expect(fresh.typeName == "Response<Int>")
        #expect("\(fresh.executor)" == "immediate")
        #expect(fresh.observerCount == 0)
        #expect(fresh.description.hasPrefix("Response<Int> created at \(#fileID):\(line), pending for "))

        response.onCompletion { _ in }
        let mapped = response.map { $0 + 1 }
        #expect(listed(line: line)?.observerCount == 2, "a callback and a derived response wait for it")
        withExtendedLifetime(mapped) {}
    }

    @Test func finishingOrCancelling_takesAResponseOffTheList() {
        ResponseTracking.start()
        defer { ResponseTracking.stop() }
        let resolvedLine: UInt = #line + 1
        let (resolved, resolver) = Response<Int>.pending(on: .immediate)
        let cancelledLine: UInt = #line + 1
        let (cancelled, otherResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime((resolved, cancelled, otherResolver)) {} }
        #expect(listed(line: resolvedLine) != nil)
        #expect(listed(line: cancelledLine) != nil)

        resolver.succeed(1)
        cancelled.cancel()

        #expect(listed(line: resolvedLine) == nil)
        #expect(listed(line: cancelledLine) == nil)
    }

    @Test func aResponseReleasedWhilePending_leavesTheList() {
        ResponseTracking.start()
        defer { ResponseTracking.stop() }
        let line: UInt = #line + 2
        do {
            let (source, resolver) = Response<Int>.pending(on: .immediate)
            withExtendedLifetime((source, resolver)) {
                #expect(listed(line: line) != nil)
            }
        }
        #expect(listed(line: line) == nil, "its last resolver went, so it failed as abandoned and finished")
    }

    @Test func onlyResponsesMadeWhileTrackingIsOn_areListed_andStopForgetsThem() {
        ResponseTracking.stop()
        let beforeLine: UInt = #line + 1
        let (before, beforeResolver) = Response<Int>.pending(on: .immediate)
        ResponseTracking.start()
        let duringLine: UInt = #line + 1
        let (during, duringResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime((before, beforeResolver, during, duringResolver)) {} }

        #expect(listed(line: beforeLine) == nil)
        #expect(listed(line: duringLine) != nil)
        ResponseTracking.stop()
        #expect(listed(line: duringLine) == nil)
        duringResolver.succeed(1)  // finishing a response that was forgotten is fine
    }

    @Test func aLongPendingResponse_isReportedOnce_withItsSite() {
        ResponseTracking.start()
        defer { ResponseTracking.stop() }
        let line: UInt = #line + 1
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime((response, resolver)) {} }

        let first = ResponseTracking.reportPending(longerThan: .nanoseconds(0))
        #expect(first.contains { $0.line == line && $0.file == #fileID })
        let second = ResponseTracking.reportPending(longerThan: .nanoseconds(0))
        #expect(!second.contains { $0.line == line && $0.file == #fileID }, "reported once")

        let reports = diagnostics(forResponseCreatedAt: line, includingWatchdog: true).filter {
            $0.kind == .longPending
        }
        #expect(reports.count == 1)
        #expect(reports.first?.message.contains("Response<Int> created at \(#fileID):\(line)") == true)
        #expect(ResponseTracking.reportPending(longerThan: .seconds(3600)).isEmpty)
    }

    @Test func responsesMadeWhileTheWatchdogChecks_areNotReportedAsLongPending() {
        ResponseTracking.start()
        defer { ResponseTracking.stop() }
        let falseReports = Recorder<String>()
        let checking = LockedBox.make(true)
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            if lane == 0 {
                while checking.withLock({ $0 }) {
                    // Pending a little while, as a chain being built is.
                    let batch = (0..<100).map { _ in Response<Int>.pending(on: .immediate) }
                    for (_, resolver) in batch { resolver.succeed(1) }
                }
            } else {
                for _ in 0..<5_000 {
                    // Nothing in a test run has been pending for an hour: any report is false.
                    for pending in ResponseTracking.reportPending(longerThan: .seconds(3600)) {
                        falseReports.record("\(pending)")
                    }
                }
                checking.withLock { $0 = false }
            }
        }
        #expect(falseReports.values.isEmpty)
    }

    @Test func theWatchdog_reportsWithoutBeingAsked() {
        let line: UInt = #line + 3
        ResponseTracking.start()
        defer { ResponseTracking.stop() }
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime((response, resolver)) {} }

        let reported = DispatchSemaphore(value: 0)
        let watch: @Sendable (ResponseDiagnostic) -> Void = { diagnostic in
            if diagnostic.kind == .longPending, diagnostic.line == line, diagnostic.file == #fileID {
                reported.signal()
            }
        }
        withDiagnosticWatch(watch) {
            ResponseTracking.startWatchdog(threshold: .nanoseconds(0), interval: .milliseconds(10))
            // Generous: only matters when the watchdog is broken.
            #expect(reported.wait(timeout: .now() + .seconds(30)) == .success)
            ResponseTracking.stopWatchdog()
        }
    }

    /// The tracked response made at `line` of this file, if it is listed.
    private func listed(line: UInt, fileID: String = #fileID) -> PendingResponse? {
        ResponseTracking.pendingResponses().first { $0.line == line && $0.file == fileID }
    }
}
