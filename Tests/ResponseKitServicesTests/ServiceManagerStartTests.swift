import ResponseKit
import ResponseKitServices
import Testing

@MainActor
struct ServiceManagerStartTests {
    let bed = ServiceTestBed()

    // MARK: - Order

    @Test func startsServicesOneAtATimeInRegistrationOrder() async throws {
        let first = try bed.service("a", start: .hold)
        try bed.service("b")
        try bed.service("c")

        let starting = try bed.manager.start()
        #expect(bed.journal.lines == ["start a"], "b must wait until a has answered")
        #expect(!starting.isDone)

        first.held["start"]?.succeed()
        #expect(await outcome(of: starting).isSuccess)
        #expect(bed.journal.lines == ["start a", "start b", "start c"])
    }

    @Test func startSucceedsAndEachRegistrationSucceeds_whenEveryServiceStarts() async throws {
        try bed.service("a")
        try bed.service("b")

        #expect(await outcome(of: try bed.manager.start()).isSuccess)
        #expect(await outcome(of: bed.registrations["a"]!).isSuccess)
        #expect(await outcome(of: bed.registrations["b"]!).isSuccess)
        #expect(bed.reported.isEmpty)
    }

    @Test func startSucceeds_withNoServices() async throws {
        #expect(await outcome(of: try bed.manager.start()).isSuccess)
    }

    @Test func servicesThatStartAtOnce_startOneAfterAnother_notOneInsideAnother() async throws {
        let probe = StackProbe()
        let names = (0..<1_000).map { "s\($0)" }
        for name in names { try bed.manager.register(ProbedService(name, journal: bed.journal, probe: probe)) }

        #expect(await outcome(of: try bed.manager.start()).isSuccess)

        #expect(bed.journal.lines == names.map { "start \($0)" })
        // Nested, each start went 16 frames or more, 3.9 KB, deeper (debug build): 3,000 services
        // overflowed the stack.
        #expect(probe.spread < 50, "the stack grew \(probe.spread) frames over 1,000 starts")
    }

    // MARK: - Failure isolation

    @Test func startReportsAFailingServiceByName_andStartsTheOthers() async throws {
        try bed.service("a")
        try bed.service("b", start: .fail)
        try bed.service("c")

        let result = await outcome(of: try bed.manager.start())

        #expect(result.failedServiceNames == ["b"])
        #expect(bed.journal.lines == ["start a", "start b", "start c"])
        #expect(bed.reportedDescriptions == ["b failed to start: scripted failure"])
        let registration = await outcome(of: bed.registrations["b"]!)
        #expect((registration.failure as? ServiceFailure)?.serviceName == "b")
        #expect(await outcome(of: bed.registrations["c"]!).isSuccess)
    }

    @Test func startGivesUpOnAHangingService_afterTheStartTimeout_andStartsTheRest() async throws {
        let hanging = try bed.service("a", start: .hold)
        try bed.service("b")
        let starting = try bed.manager.start()
        #expect(bed.timer.runningDurations == [ServiceTestBed.timeouts.start])
        #expect(bed.journal.lines == ["start a"])

        #expect(bed.timer.fireAll() == 1)

        let result = await outcome(of: starting)
        #expect(result.failedServiceNames == ["a"])
        #expect(bed.journal.lines == ["start a", "start b"])
        #expect(bed.reportedDescriptions == ["a did not start within 3.0 seconds"])
        #expect(bed.reported.first?.isTimeout == true)
        #expect(bed.reported.first?.error as? ResponseError == .deadlineExceeded)
        #expect(hanging.held["start"]?.isCancelled == true, "the manager cancels a response it gave up on")
    }

    @Test func aTimerThatFails_endsTheWaitLikeATimeout_ratherThanHangingTheManager() async throws {
        let hanging = try bed.service("a", start: .hold)
        try bed.service("b")
        let starting = try bed.manager.start()

        #expect(bed.timer.failAll(with: TestError(step: "timer")) == 1)

        let result = await outcome(of: starting)
        #expect(result.failedServiceNames == ["a"])
        #expect(bed.journal.lines == ["start a", "start b"])
        #expect(bed.reported.first?.isTimeout == true)
        #expect(hanging.held["start"]?.isCancelled == true, "the manager cancels a response it gave up on")
    }

    @Test func aServiceThatAnswersInTime_cancelsItsTimeout() async throws {
        let slow = try bed.service("a", start: .hold)
        let starting = try bed.manager.start()
        #expect(bed.timer.runningDurations.count == 1)

        slow.held["start"]?.succeed()
        #expect(await outcome(of: starting).isSuccess)

        #expect(bed.timer.runningDurations.isEmpty)
        #expect(bed.timer.fireAll() == 0)
    }

    @Test func aLateAnswerAfterTheTimeout_isIgnored() async throws {
        let slow = try bed.service("a", start: .hold)
        let starting = try bed.manager.start()
        bed.timer.fireAll()
        #expect(await outcome(of: starting).failedServiceNames == ["a"])

        #expect(slow.held["start"]?.succeed() == false, "cancelled when the manager gave up")
        _ = try bed.manager.send(.didBecomeActive)
        #expect(!bed.journal.lines.contains("a handles didBecomeActive"))
    }

    @Test func aServiceWhoseOwnStartIsCancelled_failedToStart_andWasNotSkipped() async throws {
        let service = try bed.service("a", start: .hold)
        let starting = try bed.manager.start()
        _ = await outcome(of: service.called("start"))

        service.held["start"]?.fail(CancellationError())  // its own async work was cancelled, say

        #expect(await outcome(of: starting).failedServiceNames == ["a"])
        #expect(bed.reported.map(\.isSkipped) == [false])
        #expect(bed.reportedDescriptions == ["a failed to start: \(CancellationError())"])
    }

    // MARK: - Misuse

    @Test func startingTwice_throwsAlreadyStarted() throws {
        try bed.manager.start()
        #expect(throws: ServiceManagerError.alreadyStarted()) { try bed.manager.start() }
    }

    @Test func startingAgainWhileStarting_throwsAlreadyStarted_andStartsNoServiceTwice() async throws {
        let slow = try bed.service("a", start: .hold)
        let starting = try bed.manager.start()

        #expect(throws: ServiceManagerError.alreadyStarted()) { try bed.manager.start() }
        slow.held["start"]?.succeed()

        #expect(await outcome(of: starting).isSuccess)
        #expect(bed.journal.lines == ["start a"])
    }

    @Test func startingAfterStop_throwsAlreadyStopped() throws {
        bed.manager.stop()
        #expect(throws: ServiceManagerError.alreadyStopped()) { try bed.manager.start() }
    }
}
