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

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Generous: only matters when a report never comes.
    static func waitForReport(of subject: Subject) -> Bool {
        subject.reported.wait(timeout: .now() + 30) == .success
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
}
