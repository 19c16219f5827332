import ResponseKit
import ResponseKitServices
import ResponseKitTesting
import Testing

@MainActor
struct ServiceManagerRegistrationTests {
    let bed = ServiceTestBed()

    @Test func listsServiceNamesInRegistrationOrder() throws {
        try bed.service("b")
        try bed.service("a")
        #expect(bed.manager.serviceNames == ["b", "a"])
    }

    @Test func registeringBeforeStart_startsNothing() throws {
        try bed.service("a")
        #expect(bed.journal.lines.isEmpty)
        #expect(!bed.registrations["a"]!.isDone)
    }

    @Test func aManagerReleasedBeforeStarting_failsItsRegistrationsAsSkipped_andReportsNothing() throws {
        var registration: Response<Void>?
        let problems = ResponseChecks.run {
            let manager = ServiceManager(timer: ManualTimer())
            registration = try? manager.register(ScriptedService(name: "a", journal: Journal()))
        }
        // Not abandoned (its resolver went with the manager): never started, as the app chose.
        #expect(problems.isEmpty)
        #expect((registration?.error as? ServiceFailure)?.isSkipped == true)
    }

    // MARK: - Late registration

    @Test func registeringAfterStart_startsTheServiceAtOnce() async throws {
        try bed.service("a")
        try await bed.startAll()

        try bed.service("late")

        #expect(bed.journal.lines == ["start a", "start late"])
        #expect(await outcome(of: bed.registrations["late"]!).isSuccess)
    }

    @Test func aLateService_hearsLaterEvents_andStopsFirst() async throws {
        try bed.service("a")
        try await bed.startAll()
        try bed.service("late")
        _ = await outcome(of: bed.registrations["late"]!)

        _ = await outcome(of: try bed.manager.send(.didBecomeActive))
        _ = await outcome(of: bed.manager.stop())

        #expect(
            bed.journal.lines(after: "start late") == [
                "a handles didBecomeActive", "late handles didBecomeActive", "stop late", "stop a",
            ])
    }

    @Test func registeringWhileStarting_startsTheServiceAfterThoseRegisteredBefore() async throws {
        let slow = try bed.service("a", start: .hold)
        let starting = try bed.manager.start()
        try bed.service("late")
        #expect(bed.journal.lines == ["start a"])

        slow.held["start"]?.succeed()

        #expect(await outcome(of: starting).isSuccess)
        #expect(bed.journal.lines == ["start a", "start late"])
    }

    @Test func twoLateServices_startOneAtATime() async throws {
        try await bed.startAll()
        let first = try bed.service("first", start: .hold)
        try bed.service("second")
        #expect(bed.journal.lines == ["start first"])

        first.held["start"]?.succeed()

        #expect(await outcome(of: bed.registrations["second"]!).isSuccess)
        #expect(bed.journal.lines == ["start first", "start second"])
    }

    @Test func aLateServiceThatFailsToStart_isReportedByName() async throws {
        try await bed.startAll()

        try bed.service("late", start: .fail)

        let registration = await outcome(of: bed.registrations["late"]!)
        #expect((registration.failure as? ServiceFailure)?.step == .start)
        #expect(bed.reportedDescriptions == ["late failed to start: scripted failure"])
    }

    @Test func aLateServiceThatHangsOnStart_timesOut() async throws {
        try await bed.startAll()
        try bed.service("late", start: .hold)
        #expect(bed.timer.runningDurations == [ServiceTestBed.timeouts.start])

        bed.timer.fireAll()

        let registration = await outcome(of: bed.registrations["late"]!)
        #expect((registration.failure as? ServiceFailure)?.isTimeout == true)
    }

    @Test func aFallbackRegisteredByTheFailureHandler_startsBeforeTheStartFinishes() async throws {
        let journal = Journal()
        let holder = ManagerHolder()
        let manager = ServiceManager(timeouts: ServiceTestBed.timeouts, timer: ManualTimer()) { failure in
            guard failure.serviceName == "sync" else { return }
            _ = try? holder.manager?.register(ScriptedService(name: "offline-sync", journal: journal))
        }
        holder.manager = manager
        try manager.register(ScriptedService(name: "sync", journal: journal, start: .fail))
        try manager.register(ScriptedService(name: "cache", journal: journal))

        #expect(await outcome(of: try manager.start()).failedServiceNames == ["sync"])

        #expect(journal.lines == ["start sync", "start cache", "start offline-sync"])
        #expect(await outcome(of: manager.stop()).isSuccess)
        #expect(journal.lines(after: "start offline-sync") == ["stop offline-sync", "stop cache"])
    }

    // MARK: - Misuse

    @Test func registeringAfterStop_throwsAlreadyStopped_andDoesNotRegister() async throws {
        try await bed.startAll()
        bed.manager.stop()

        #expect(throws: ServiceManagerError.alreadyStopped()) { try bed.service("late") }
        #expect(bed.manager.serviceNames.isEmpty)
        #expect(bed.journal.lines.isEmpty)
    }
}
