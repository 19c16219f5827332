import Dispatch
import ResponseKitTesting
import Testing

@testable import ResponseKit

/// The long-wait watch reports each watched wait once, when it is due, and never one that ended
/// first, whatever order the waits come in: so a blocking wait can sleep with no timer of its own.
struct LongWaitWatchTests {
    /// A subject that counts its reports and signals each one.
    final class Subject: LongWaitSubject {
        let reports = Recorder<Int>()
        let reported = DispatchSemaphore(value: 0)

        func reportLongWait() {
            reports.record(1)
            reported.signal()
        }
    }

    /// A subject whose report runs `body`, as a diagnostics handler would.
    final class CustomSubject: LongWaitSubject {
        let body: @Sendable () -> Void

        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }

        func reportLongWait() {
            body()
        }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Generous: only matters when a report never comes.
    static func waitForReport(of subject: Subject) -> Bool {
        subject.reported.wait(timeout: .now() + 30) == .success
    }

    /// Runs `body` while a report holds the watch's one queue: the waits `body` makes due are
    /// then reported only after it, together.
    static func whileTheWatchReports(_ body: () -> Void) {
        let generous = DispatchTime.now() + 30
        let holderRuns = DispatchSemaphore(value: 0)
        let releaseHolder = DispatchSemaphore(value: 0)
        let holder = CustomSubject {
            holderRuns.signal()
            _ = releaseHolder.wait(timeout: generous)
        }
        let holderTicket = LongWaitWatch.watch(holder, due: now())
        defer { LongWaitWatch.unwatch(holderTicket) }
        #expect(holderRuns.wait(timeout: generous) == .success)
        body()
        releaseHolder.signal()
    }

    /// Returns once the watch has reported every wait due before: it reports in order, from one
    /// queue, so once a wait due now is reported, the earlier reports are over.
    static func waitForEarlierReports() {
        let later = Subject()
        let laterTicket = LongWaitWatch.watch(later, due: now())
        defer { LongWaitWatch.unwatch(laterTicket) }
        #expect(waitForReport(of: later))
    }

    @Test func aWaitDueBeforeAWatchedOne_isReportedWhenDue_notWithTheLaterOne() {
        let later = Subject()
        let sooner = Subject()
        let laterTicket = LongWaitWatch.watch(later, due: Self.now() + 600_000_000_000)  // ten minutes
        let soonerTicket = LongWaitWatch.watch(sooner, due: Self.now() + 10_000_000)
        defer {
            LongWaitWatch.unwatch(laterTicket)
            LongWaitWatch.unwatch(soonerTicket)
        }
        #expect(Self.waitForReport(of: sooner))
        #expect(sooner.reports.values.count == 1)
        #expect(later.reports.values.isEmpty)
    }

    @Test func aWaitThatEnds_isNeverReported() {
        let ended = Subject()
        let goesOn = Subject()
        let endedTicket = LongWaitWatch.watch(ended, due: Self.now() + 5_000_000)
        LongWaitWatch.unwatch(endedTicket)
        // Due after the ended one: once it is reported, the ended one's time has passed too.
        let goesOnTicket = LongWaitWatch.watch(goesOn, due: Self.now() + 20_000_000)
        defer { LongWaitWatch.unwatch(goesOnTicket) }
        #expect(Self.waitForReport(of: goesOn))
        #expect(ended.reports.values.isEmpty)
    }

    @Test func everyWaitDue_isReportedOnce_evenThoseDueAtOnce() {
        let subjects = (0..<20).map { _ in Subject() }
        let start = Self.now()
        let tickets = subjects.enumerated().map { index, subject in
            LongWaitWatch.watch(subject, due: index.isMultiple(of: 2) ? start : start + UInt64(index) * 1_000_000)
        }
        defer { tickets.forEach(LongWaitWatch.unwatch) }
        for subject in subjects { #expect(Self.waitForReport(of: subject)) }
        // The watch lets go of a wait as it reports it: one report each.
        #expect(subjects.allSatisfy { $0.reports.values.count == 1 })
    }

    @Test func aWaitThatEndsWhileAnotherIsReported_isNotReportedAfterItEnded() {
        // The diagnostics handler is user code, and may be slow: a wait that ends while the report
        // of another runs has ended before its own report, and is not reported.
        let generous = DispatchTime.now() + 30
        // Two waits due at once; the first one reported holds the queue until both waits ended.
        let reported = Recorder<Int>()
        let firstReportRuns = DispatchSemaphore(value: 0)
        let bothEnded = DispatchSemaphore(value: 0)
        let subjects = (0..<2).map { index in
            CustomSubject {
                reported.record(index)
                guard reported.count == 1 else { return }
                firstReportRuns.signal()
                _ = bothEnded.wait(timeout: generous)
            }
        }
        var tickets: [UInt64] = []
        Self.whileTheWatchReports {
            let start = Self.now()
            tickets = subjects.map { LongWaitWatch.watch($0, due: start) }
        }
        #expect(firstReportRuns.wait(timeout: generous) == .success)
        tickets.forEach(LongWaitWatch.unwatch)
        bothEnded.signal()

        Self.waitForEarlierReports()
        #expect(reported.values.count == 1)
    }

    @Test func aWaitWhoseResponseFinished_isNotReported() {
        // The timer can fire between the response's completion, which wakes the waiting thread,
        // and that thread's end of the watch: the wait is over, there is nothing to report.
        startRecordingDiagnostics()
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let creationLine = UInt(#line) - 1
        var ticket: UInt64 = 0
        Self.whileTheWatchReports {
            ticket = LongWaitWatch.watch(response, due: Self.now())
            resolver.succeed(1)
        }
        defer { LongWaitWatch.unwatch(ticket) }

        Self.waitForEarlierReports()
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }
}
