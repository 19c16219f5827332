import ResponseKit
import ResponseKitServices
import Testing

@MainActor
struct ServiceManagerEventTests {
    let bed = ServiceTestBed()

    // MARK: - Delivery

    @Test func deliversEachEventToEveryServiceInRegistrationOrder() async throws {
        try bed.service("a")
        try bed.service("b")
        try bed.service("c")
        try await bed.startAll()

        for event in [LifecycleEvent.didFinishLaunching, .didEnterBackground] {
            #expect(await outcome(of: try bed.manager.send(event)).isSuccess)
        }

        #expect(
            bed.journal.lines(after: "start c") == [
                "a handles didFinishLaunching", "b handles didFinishLaunching", "c handles didFinishLaunching",
                "a handles didEnterBackground", "b handles didEnterBackground", "c handles didEnterBackground",
            ])
    }

    @Test func deliversEventsOnTheMainQueue() async throws {
        let service = try bed.service("a")
        try await bed.startAll()

        for event in LifecycleEvent.standard {
            _ = try bed.manager.send(event)
        }

        #expect(service.handledOnMainQueue == Array(repeating: true, count: LifecycleEvent.standard.count))
    }

    @Test func tellsEveryServiceBeforeAnyHasAnswered() async throws {
        try bed.service("a", event: .hold)
        try bed.service("b", event: .hold)
        try await bed.startAll()

        let sending = try bed.manager.send(.willResignActive)

        #expect(bed.journal.lines(after: "start b") == ["a handles willResignActive", "b handles willResignActive"])
        #expect(!sending.isDone)
    }

    @Test func aServiceWithoutEventHandling_answersAtOnce() async throws {
        try bed.manager.register(QuietService())
        try await bed.startAll()

        #expect(await outcome(of: try bed.manager.send(.didReceiveMemoryWarning)).isSuccess)
        #expect(bed.timer.runningDurations.isEmpty)
    }

    // MARK: - Failure isolation

    @Test func reportsAFailingAndAHangingService_andStillNotifiesTheOthers() async throws {
        try bed.service("a")
        try bed.service("b", event: .fail)
        let hanging = try bed.service("c", event: .hold)
        try bed.service("d")
        try await bed.startAll()

        let sending = try bed.manager.send(.didEnterBackground)
        #expect(
            bed.journal.lines(after: "start d") == [
                "a handles didEnterBackground", "b handles didEnterBackground",
                "c handles didEnterBackground", "d handles didEnterBackground",
            ])
        #expect(bed.timer.runningDurations == [ServiceTestBed.timeouts.event])
        bed.timer.fireAll()

        #expect(await outcome(of: sending).failedServiceNames == ["b", "c"])
        #expect(
            Set(bed.reportedDescriptions) == [
                "b failed to handle didEnterBackground: scripted failure",
                "c did not handle didEnterBackground within 2.0 seconds",
            ])
        #expect(hanging.held["didEnterBackground"]?.isCancelled == true)
    }

    @Test func aServiceThatFailedAnEvent_keepsRunning() async throws {
        let flaky = try bed.service("a", event: .fail)
        try await bed.startAll()
        _ = await outcome(of: try bed.manager.send(.didBecomeActive))

        flaky.eventAnswer = .succeed
        #expect(await outcome(of: try bed.manager.send(.willResignActive)).isSuccess)
        #expect(await outcome(of: bed.manager.stop()).isSuccess)
        #expect(bed.journal.lines.last == "stop a")
    }

    @Test func aServiceThatFailedToStart_hearsNoEvent() async throws {
        try bed.service("a", start: .fail)
        try bed.service("b")
        try await bed.startAll()

        #expect(await outcome(of: try bed.manager.send(.didBecomeActive)).isSuccess)

        #expect(bed.journal.lines == ["start a", "start b", "b handles didBecomeActive"])
    }

    // MARK: - Stopping while sending

    @Test func aStopRequestedWhileAnEventIsSent_tellsNoServiceAboutItAfterItsStop() async throws {
        let journal = Journal()
        let holder = ManagerHolder()
        let manager = ServiceManager(timeouts: ServiceTestBed.timeouts, timer: ManualTimer()) { _ in
            holder.manager?.stop()  // "shut down on any failure", as an app may decide
        }
        holder.manager = manager
        for (name, event) in [("a", Answer.fail), ("b", .succeed), ("c", .succeed)] {
            try manager.register(ScriptedService(name: name, journal: journal, event: event))
        }
        _ = await outcome(of: try manager.start())

        let sending = try manager.send(.didEnterBackground)

        #expect(await outcome(of: sending).failedServiceNames == ["a"])
        #expect(
            journal.lines(after: "start c") == [
                "a handles didEnterBackground", "stop c", "stop b", "stop a",
            ])
    }

    // MARK: - Misuse

    @Test func sendingBeforeStart_throwsNotStarted() throws {
        try bed.service("a")
        #expect(throws: ServiceManagerError.notStarted()) { try bed.manager.send(.didBecomeActive) }
        #expect(bed.journal.lines.isEmpty)
    }

    @Test func sendingAfterStop_throwsAlreadyStopped() async throws {
        try bed.service("a")
        try await bed.startAll()
        bed.manager.stop()
        #expect(throws: ServiceManagerError.alreadyStopped()) { try bed.manager.send(.willTerminate) }
        #expect(!bed.journal.lines.contains("a handles willTerminate"))
    }
}
