import ResponseKit
import ResponseKitServices
import Testing

@MainActor
struct ServiceManagerStopTests {
    let bed = ServiceTestBed()

    // MARK: - Order

    @Test func stopsServicesOneAtATimeInReverseRegistrationOrder() async throws {
        try bed.service("a")
        let middle = try bed.service("b", stop: .hold)
        try bed.service("c")
        try await bed.startAll()

        let stopping = bed.manager.stop()
        _ = await outcome(of: middle.called("stop"))
        #expect(bed.journal.lines(after: "start c") == ["stop c", "stop b"], "a must wait until b has answered")

        middle.held["stop"]?.succeed()
        #expect(await outcome(of: stopping).isSuccess)
        #expect(bed.journal.lines(after: "start c") == ["stop c", "stop b", "stop a"])
    }

    @Test func servicesThatStopAtOnce_stopOneAfterAnother_notOneInsideAnother() async throws {
        let probe = StackProbe()
        let names = (0..<1_000).map { "s\($0)" }
        for name in names { try bed.manager.register(ProbedService(name, journal: bed.journal, probe: probe)) }
        try await bed.startAll()
        probe.forget()

        #expect(await outcome(of: bed.manager.stop()).isSuccess)

        #expect(bed.journal.lines(after: "start s999") == names.reversed().map { "stop \($0)" })
        #expect(probe.spread < 50, "the stack grew \(probe.spread) frames over 1,000 stops")
    }

    @Test func stoppingTwice_returnsTheSameResponse_andStopsEachServiceOnce() async throws {
        try bed.service("a")
        try await bed.startAll()

        let first = bed.manager.stop()
        let second = bed.manager.stop()

        #expect(first === second)
        #expect(await outcome(of: first).isSuccess)
        #expect(bed.journal.lines == ["start a", "stop a"])
    }

    @Test func stoppingAgainAfterTheStopFinished_returnsTheFinishedResponse_andStopsNothingMore() async throws {
        try bed.service("a", stop: .fail)
        try await bed.startAll()
        let first = bed.manager.stop()
        _ = await outcome(of: first)

        let again = bed.manager.stop()

        #expect(again === first)
        #expect(await outcome(of: again).failedServiceNames == ["a"])
        #expect(bed.journal.lines == ["start a", "stop a"])
        #expect(bed.reported.count == 1, "the failure is reported once, not once per stop()")
    }

    @Test func stopBeforeStart_stopsNothing_andFailsTheWaitingRegistrations() async throws {
        try bed.service("a")

        #expect(await outcome(of: bed.manager.stop()).isSuccess)

        #expect(bed.journal.lines.isEmpty)
        let registration = await outcome(of: bed.registrations["a"]!)
        #expect((registration.failure as? ServiceFailure)?.isSkipped == true)
    }

    @Test func aServiceThatFailedToStart_isNotStopped() async throws {
        try bed.service("a")
        try bed.service("b", start: .fail)
        try await bed.startAll()

        #expect(await outcome(of: bed.manager.stop()).isSuccess)
        #expect(bed.journal.lines(after: "start b") == ["stop a"])
    }

    // MARK: - Failure isolation and timeouts

    @Test func stopReportsAFailingService_andStopsTheOthers() async throws {
        try bed.service("a")
        try bed.service("b", stop: .fail)
        try bed.service("c")
        try await bed.startAll()

        let result = await outcome(of: bed.manager.stop())

        #expect(result.failedServiceNames == ["b"])
        #expect(bed.journal.lines(after: "start c") == ["stop c", "stop b", "stop a"])
        #expect(bed.reportedDescriptions == ["b failed to stop: scripted failure"])
    }

    @Test func aServiceWhoseOwnDeadlinePasses_failedToStop_butDidNotMissTheManagersLimit() async throws {
        try bed.service("a")
        let service = try bed.service("b", stop: .hold)
        try await bed.startAll()

        let stopping = bed.manager.stop()
        _ = await outcome(of: service.called("stop"))
        service.held["stop"]?.fail(ResponseError.deadlineExceeded)  // its own timeout(after:), say

        #expect(await outcome(of: stopping).failedServiceNames == ["b"])
        #expect(bed.reported.first?.isTimeout == false)
        #expect(bed.reported.first?.timeout == nil)
        #expect(bed.reportedDescriptions == ["b failed to stop: \(ResponseError.deadlineExceeded)"])
    }

    @Test func stopGivesUpOnAHangingService_afterTheStopTimeout_andStopsTheOthers() async throws {
        try bed.service("a")
        let hanging = try bed.service("b", stop: .hold)
        try bed.service("c")
        try await bed.startAll()

        let stopping = bed.manager.stop()
        _ = await outcome(of: hanging.called("stop"))
        #expect(bed.journal.lines(after: "start c") == ["stop c", "stop b"])
        #expect(bed.timer.runningDurations == [ServiceTestBed.timeouts.stop])

        bed.timer.fireAll()

        #expect(await outcome(of: stopping).failedServiceNames == ["b"])
        #expect(bed.journal.lines(after: "start c") == ["stop c", "stop b", "stop a"])
        #expect(bed.reportedDescriptions == ["b did not stop within 1.0 seconds"])
        #expect(hanging.held["stop"]?.isCancelled == true)
    }

    @Test func stopListsEveryFailureInRegistrationOrder() async throws {
        try bed.service("a", stop: .fail)
        let hanging = try bed.service("b", stop: .hold)
        try bed.service("c", stop: .fail)
        try await bed.startAll()

        let stopping = bed.manager.stop()
        _ = await outcome(of: hanging.called("stop"))
        bed.timer.fireAll()

        #expect(await outcome(of: stopping).failedServiceNames == ["a", "b", "c"])
    }

    @Test func stopSucceeds_withNoServices() async throws {
        try await bed.startAll()
        #expect(await outcome(of: bed.manager.stop()).isSuccess)
        #expect(bed.reported.isEmpty)
    }

    // MARK: - Stopping while starting

    @Test func stopDuringStart_waitsForTheServiceStarting_skipsTheRest_andStopsTheStarted() async throws {
        try bed.service("a")
        let slow = try bed.service("b", start: .hold)
        try bed.service("c")
        let starting = try bed.manager.start()
        #expect(bed.journal.lines == ["start a", "start b"])

        let stopping = bed.manager.stop()
        #expect(bed.journal.lines == ["start a", "start b"], "b is still starting: nothing stops yet")
        slow.held["start"]?.succeed()

        #expect(await outcome(of: stopping).isSuccess)
        #expect(bed.journal.lines == ["start a", "start b", "stop b", "stop a"])
        #expect(await outcome(of: starting).failedServiceNames == ["c"])
        let skipped = await outcome(of: bed.registrations["c"]!).failure as? ServiceFailure
        #expect(skipped?.isSkipped == true)
        #expect(skipped?.description == "c was not started: the manager began stopping first")
        // The failure handler hears of it too: a caller that dropped c's registration learns it there.
        #expect(bed.reportedDescriptions == ["c was not started: the manager began stopping first"])
    }

    @Test func stopDuringAStartThatHangs_givesUpAfterTheStartTimeout_thenStopsTheStarted() async throws {
        try bed.service("a")
        let hanging = try bed.service("b", start: .hold)
        try bed.service("c")
        try bed.manager.start()
        let stopping = bed.manager.stop()
        #expect(bed.timer.runningDurations == [ServiceTestBed.timeouts.start])

        bed.timer.fireAll()

        let result = await outcome(of: stopping)
        #expect(result.isSuccess, "b never started, so it has nothing to stop: \(result)")
        #expect(bed.journal.lines == ["start a", "start b", "stop a"])
        #expect(
            bed.reportedDescriptions == [
                "b did not start within 3.0 seconds", "c was not started: the manager began stopping first",
            ])
        #expect(hanging.held["start"]?.isCancelled == true)
    }

    @Test func aServiceThatStartedAfterStopWasCalled_isStoppedOnce() async throws {
        let slow = try bed.service("a", start: .hold)
        try bed.manager.start()
        let first = bed.manager.stop()
        slow.held["start"]?.succeed()
        let second = bed.manager.stop()

        #expect(first === second)
        #expect(await outcome(of: first).isSuccess)
        #expect(bed.journal.lines == ["start a", "stop a"])
    }

    // MARK: - Stopping from inside a step

    @Test func aFailureHandlerThatStopsOnAStartFailure_skipsTheRest_andStopsEachStartedServiceOnce() async throws {
        let journal = Journal()
        let holder = ManagerHolder()
        var reported: [String] = []
        let manager = ServiceManager(timeouts: ServiceTestBed.timeouts, timer: ManualTimer()) { failure in
            reported.append(failure.description)
            holder.manager?.stop()  // "shut down on any failure", as an app may decide
        }
        holder.manager = manager
        for (name, start) in [("a", Answer.succeed), ("b", .fail), ("c", .succeed)] {
            try manager.register(ScriptedService(name: name, journal: journal, start: start))
        }

        let starting = try manager.start()

        #expect(await outcome(of: starting).failedServiceNames == ["b", "c"])
        #expect(await outcome(of: manager.stop()).isSuccess)
        #expect(journal.lines == ["start a", "start b", "stop a"])
        #expect(
            reported == [
                "b failed to start: scripted failure", "c was not started: the manager began stopping first",
            ])
    }

    @Test func aServiceThatCallsStopFromItsStart_isStartedAndStoppedOnce_andTheRestAreSkipped() async throws {
        let holder = ManagerHolder()
        holder.manager = bed.manager
        try bed.service("a")
        try bed.manager.register(SelfStoppingService(holder: holder, journal: bed.journal))
        try bed.service("c")

        let starting = try bed.manager.start()

        #expect(await outcome(of: starting).failedServiceNames == ["c"])
        #expect(await outcome(of: bed.manager.stop()).isSuccess)
        #expect(bed.journal.lines == ["start a", "start quitter", "stop quitter", "stop a"])
    }
}

/// A service that asks its manager to stop while it starts, as a fatal configuration error may.
@MainActor
private final class SelfStoppingService: Service {
    let name = "quitter"
    private let holder: ManagerHolder
    private let journal: Journal

    init(holder: ManagerHolder, journal: Journal) {
        self.holder = holder
        self.journal = journal
    }

    func start() -> Response<Void> {
        journal.record("start quitter")
        holder.manager?.stop()
        return .succeeded((), on: .immediate)
    }

    func stop() -> Response<Void> {
        journal.record("stop quitter")
        return .succeeded((), on: .immediate)
    }
}
