import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing
import XCTest

/// A `ManualExecutor` or `ManualScheduler` released with jobs that never ran fails the test that
/// released it, naming where it was made, even without the response checks; once, when the checks
/// already reported those jobs at the end of their test.
///
/// Not under `.responseChecks`: these tests are about what happens without it, and `withKnownIssue`
/// catches only issues recorded inside its block.
struct LeftoverJobsTests {
    // MARK: - released with jobs left

    @Test func anExecutorReleasedWithAJobLeft_failsTheTest_namingWhereItWasMade() {
        let line = #line + 2
        withKnownIssue {
            let manual = ManualExecutor()
            manual.execute {}
        } matching: { issue in
            issue.sourceLocation?.line == line
                && "\(issue)".contains("ResponseKit leftoverWork: ManualExecutor made at \(#fileID):\(line)")
                && "\(issue)".contains("was released with 1 job queued")
        }
    }

    @Test func aSchedulerReleasedWithJobsLeft_failsTheTest_namingWhereItWasMade() {
        let line = #line + 2
        withKnownIssue {
            let scheduler = ManualScheduler()
            _ = scheduler.schedule(after: .seconds(1)) {}
            _ = scheduler.schedule(after: .seconds(2)) {}
            scheduler.advance(by: .milliseconds(500))
        } matching: { issue in
            issue.sourceLocation?.line == line
                && "\(issue)".contains("ResponseKit leftoverWork: ManualScheduler made at \(#fileID):\(line)")
                && "\(issue)".contains("was released with 2 jobs scheduled (its clock at 0.5 seconds)")
        }
    }

    @Test func anExecutorReleasedOutsideAnyTest_isReportedToTheHandler() {
        let recorder = DiagnosticsRecorder.shared
        let line = #line + 1
        let manual = LockedBox<ManualExecutor?>.make(ManualExecutor())
        manual.withLock { $0?.execute {} }
        // Released on a thread of Dispatch's: no test runs there.
        let released = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            manual.withLock { $0 = nil }
            released.signal()
        }
        #expect(released.wait(timeout: .now() + 30) == .success)
        let reported = recorder.values(createdAt: UInt(line))
        #expect(reported.map(\.kind) == [.leftoverWork])
        #expect(reported.first?.message.contains("ManualExecutor made at \(#fileID):\(line)") == true)
    }

    // MARK: - nothing left

    @Test func aDrainedExecutorOrScheduler_reportsNothing() {
        let recorder = DiagnosticsRecorder.shared
        let line: UInt = #line
        do {
            let (manual, scheduler) = Self.doublesWithAJobEach(madeAt: line)
            manual.runAll()
            scheduler.advance(by: .seconds(1))
        }
        #expect(recorder.values(createdAt: line).isEmpty)
    }

    @Test func discardedJobs_areNotReported() {
        let recorder = DiagnosticsRecorder.shared
        let line: UInt = #line
        do {
            let (manual, scheduler) = Self.doublesWithAJobEach(madeAt: line)
            #expect(manual.discardPendingJobs() == 1)
            #expect(scheduler.discardPendingJobs() == 1)
        }
        #expect(recorder.values(createdAt: line).isEmpty)
    }

    // MARK: - under the response checks

    @Test func releasedInACheckedRun_isOneProblemOfTheRun() {
        let problems = ResponseChecks.run {
            let manual = ManualExecutor()
            manual.execute {}
        }
        #expect(problems.map(\.kind) == [.leftoverWork])
        #expect(problems.first?.line == UInt(#line) - 4)
        #expect(problems.first?.message.contains("was released with 1 job queued") == true)
    }

    @Test func jobsTheChecksReportedAtTheEnd_areNotReportedAgainOnRelease() {
        let recorder = DiagnosticsRecorder.shared
        var kept: (ManualExecutor, ManualScheduler)?
        let line: UInt = #line
        let problems = ResponseChecks.run {
            kept = Self.doublesWithAJobEach(madeAt: line)
        }
        #expect(problems.map(\.kind) == [.leftoverWork, .leftoverWork])
        #expect(problems.allSatisfy { $0.message.contains("when the test ended") })
        #expect(kept?.0.pendingCount == 1 && kept?.1.pendingCount == 1)
        kept = nil  // released with the jobs reported: an issue here would fail this test
        #expect(recorder.values(createdAt: line).isEmpty)
    }

    @Test func jobsThatCameAfterTheChecksReport_areReportedOnRelease() {
        var manual: ManualExecutor?
        var scheduler: ManualScheduler?
        _ = ResponseChecks.run {
            (manual, scheduler) = Self.doublesWithAJobEach(madeAt: #line)
        }
        manual?.execute {}
        _ = scheduler?.schedule(after: .seconds(1)) {}
        withKnownIssue {
            (manual, scheduler) = (nil, nil)
        } matching: { issue in
            "\(issue)".contains("was released with 1 job")
        }
    }

    // MARK: - helpers

    /// A manual executor and a manual scheduler made at `line`, with a job each.
    private static func doublesWithAJobEach(madeAt line: UInt) -> (ManualExecutor, ManualScheduler) {
        let manual = ManualExecutor(line: line)
        let scheduler = ManualScheduler(line: line)
        manual.execute {}
        _ = scheduler.schedule(after: .seconds(1)) {}
        return (manual, scheduler)
    }
}

/// In XCTest, a manual executor released with jobs left is a failure of the test running.
final class LeftoverJobsXCTests: XCTestCase {
    /// The failures recorded while ``catchingFailures(_:)`` runs, instead of failing the test.
    private var caught: [(description: String, line: Int)]?

    override func recordFailure(
        withDescription description: String,
        inFile filePath: String,
        atLine lineNumber: Int,
        expected: Bool
    ) {
        if caught != nil {
            caught?.append((description, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private func catchingFailures(_ body: () -> Void) -> [(description: String, line: Int)] {
        caught = []
        body()
        defer { caught = nil }
        return caught ?? []
    }

    func testAnExecutorReleasedWithAJobLeft_failsTheTest_namingWhereItWasMade() {
        let line = #line + 2
        let failures = catchingFailures {
            let manual = ManualExecutor()
            manual.execute {}
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertTrue(failures.first?.description.contains("ManualExecutor made at \(#fileID):\(line)") == true)
    }

    func testADrainedExecutor_reportsNothing() {
        let failures = catchingFailures {
            let manual = ManualExecutor()
            manual.execute {}
            manual.runAll()
        }
        XCTAssertTrue(failures.isEmpty)
    }
}
