import ExecutableRun
import Testing

/// A command-line program that exits with `.main` deliveries still queued (it never serviced the
/// main queue) says so in one line; one that serviced it, or blocked on the response, says nothing.
/// Each case is a real process (`ResponseKitFixture`), since only an exit shows it.
struct DeliveriesLostAtExitTests {
    @Test func aDeliveryNobodyRan_isReportedAtExit_withItsCreationSite() throws {
        let run = try ExecutableRun("ResponseKitFixture", ["lost-at-exit", "1"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "exiting\n")
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(run.standardError)")
        let report = try #require(lines.first)
        #expect(report.hasPrefix("ResponseKit lostAtExit: 1 delivery queued for the main queue never ran"))
        #expect(report.contains("nobody serviced the main queue"))
        #expect(report.contains("dispatchMain()") && report.contains("RunLoop.main.run()"))
        #expect(report.contains("created at ResponseKitFixture/main.swift:"))
    }

    @Test func manyDeliveriesNobodyRan_areCountedInOneLine() throws {
        let run = try ExecutableRun("ResponseKitFixture", ["lost-at-exit", "3"])
        #expect(run.status == 0)
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(run.standardError)")
        #expect(lines.first?.hasPrefix("ResponseKit lostAtExit: 3 deliveries queued") == true)
    }

    @Test func aHandlerQueuedForRelease_isNotCountedAsADelivery() throws {
        let run = try ExecutableRun("ResponseKitFixture", ["lost-with-handler"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "exiting\n")
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(run.standardError)")
        #expect(lines.first?.hasPrefix("ResponseKit lostAtExit: 1 delivery queued") == true)
    }

    @Test func aBlockingReadOnTheMainThread_runsTheDeliveryFirst_andNothingIsReported() throws {
        let run = try ExecutableRun("ResponseKitFixture", ["blocking-read"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "delivered 1\nread 1\n")
        #expect(run.standardError == "")
    }

    @Test func aProgramThatServicesTheMainQueue_reportsNothing() throws {
        let run = try ExecutableRun("ResponseKitFixture", ["serviced"])
        #expect(run.status == 0)
        #expect(run.standardOutput == "delivered 1\n")
        #expect(run.standardError == "")
    }
}
