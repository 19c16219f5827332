import ResponseKit
import Testing

@testable import ResponseKitServices

/// The manager's state machine on its own: the test plays the manager, asking for the next action
/// and telling the services' answers, so each step of a life reads as a line.
@MainActor
struct ServiceManagerStateTests {
    private let journal = Journal()

    // MARK: - Starting

    @Test func startsOneServiceAtATime_thenFinishesTheStart() {
        var state = ServiceManagerState()
        let a = register("a", in: &state)
        register("b", in: &state)

        state.start(makeCall())

        #expect(describe(state.nextAction()) == "start a")
        #expect(describe(state.nextAction()) == "wait", "b must wait until a has answered")
        answerStart(of: a, failing: false, in: &state)
        #expect(describe(state.nextAction()) == "start b")
        answerStart(of: state.entries[1], failing: false, in: &state)
        #expect(describe(state.nextAction()) == "finish")
        #expect(state.progress == .started)
        #expect(describe(state.nextAction()) == "wait")
    }

    @Test func theStartListsTheFailedStartsUntilItFinishes_includingServicesRegisteredMeanwhile() {
        var state = ServiceManagerState()
        let a = register("a", in: &state)
        state.start(makeCall())
        #expect(describe(state.nextAction()) == "start a")
        let b = register("b", in: &state)  // while a starts

        answerStart(of: a, failing: false, in: &state)
        #expect(describe(state.nextAction()) == "start b")
        answerStart(of: b, failing: true, in: &state)
        #expect(describe(state.nextAction()) == "finish: b failed")

        let c = register("c", in: &state)  // once running: no start response is left to list it
        #expect(describe(state.nextAction()) == "start c")
        answerStart(of: c, failing: true, in: &state)
        #expect(describe(state.nextAction()) == "wait")

        finishStopping(&state)
    }

    // MARK: - Stopping

    @Test func stopDuringAStart_waitsForIt_skipsTheWaiting_thenStopsInReverse() {
        var state = ServiceManagerState()
        let a = register("a", in: &state)
        register("b", in: &state)
        register("c", in: &state)
        state.start(makeCall())
        #expect(describe(state.nextAction()) == "start a")
        answerStart(of: a, failing: false, in: &state)
        #expect(describe(state.nextAction()) == "start b")

        let stopping = makeCall()
        state.stop(stopping.resolver.response, stopping)

        #expect(describe(state.nextAction()) == "wait", "no service stops while b's start is in flight")
        answerStart(of: state.entries[1], failing: false, in: &state)
        #expect(describe(state.nextAction()) == "skip c; finish: c failed")
        #expect(describe(state.nextAction()) == "stop b")
        #expect(describe(state.nextAction()) == "wait", "a stops once b has answered")
        answerStop(of: state.entries[1], failing: true, in: &state)
        #expect(describe(state.nextAction()) == "stop a")
        answerStop(of: a, failing: false, in: &state)
        #expect(describe(state.nextAction()) == "finish: b failed")
        #expect(describe(state.nextAction()) == "wait")
    }

    @Test func heldServices_doNotStart_andTheStopSkipsThem() {
        var state = ServiceManagerState()
        state.holdWaitingServices()
        register("a", in: &state)
        state.start(makeCall())

        #expect(describe(state.nextAction()) == "wait", "a is held")

        let stopping = makeCall()
        state.stop(stopping.resolver.response, stopping)
        #expect(describe(state.nextAction()) == "skip a; finish: a failed")
        #expect(describe(state.nextAction()) == "finish")
    }

    @Test func aStoppedManager_keepsTheFirstStopResponse() {
        var state = ServiceManagerState()
        #expect(state.stopResponse == nil)
        let stopping = makeCall()

        state.stop(stopping.resolver.response, stopping)
        #expect(describe(state.nextAction()) == "skip")  // nothing was waiting, nor started
        #expect(describe(state.nextAction()) == "finish")

        #expect(state.progress == .stopCalled)
        #expect(state.stopResponse === stopping.resolver.response)
        #expect(describe(state.nextAction()) == "wait")
    }

    // MARK: - Playing the manager

    @discardableResult
    private func register(_ name: String, in state: inout ServiceManagerState) -> ServiceManager.Entry {
        let (response, resolver) = Response<Void>.pending(on: .immediate)
        response.countFailureAsObserved()  // as the manager's own registrations do
        let entry = ServiceManager.Entry(
            service: ScriptedService(name: name, journal: journal),
            registrationSite: CallSite(file: #fileID, line: #line),
            started: resolver
        )
        _ = state.register(entry)
        return entry
    }

    private func makeCall() -> StepCall {
        let (response, resolver) = Response<Void>.pending(on: .immediate)
        response.countFailureAsObserved()
        return StepCall(resolver: resolver, site: CallSite(file: #fileID, line: #line))
    }

    private func failure(of entry: ServiceManager.Entry, step: ServiceFailure.Step) -> ServiceFailure {
        ServiceFailure(serviceName: entry.name, step: step, error: TestError())
    }

    private func answerStart(of entry: ServiceManager.Entry, failing: Bool, in state: inout ServiceManagerState) {
        let failure = failing ? failure(of: entry, step: .start) : nil
        state.entryStarted(entry, failure: failure)
        if let failure { entry.started.fail(failure) } else { entry.started.succeed() }
    }

    private func answerStop(of entry: ServiceManager.Entry, failing: Bool, in state: inout ServiceManagerState) {
        state.entryStopped(entry, failure: failing ? failure(of: entry, step: .stop) : nil)
    }

    /// Stops what is left, so that no registration or step is left pending.
    private func finishStopping(_ state: inout ServiceManagerState) {
        let stopping = makeCall()
        state.stop(stopping.resolver.response, stopping)
        while let action = state.nextAction() {
            if case .stop(let entry) = action { answerStop(of: entry, failing: false, in: &state) }
            _ = describe(action)
        }
    }

    /// The action as a line (`start a`, `skip c; finish: c failed`, `stop b`, `finish`, or `wait`
    /// for none), after doing with the responses what the manager would.
    private func describe(_ action: ServiceManagerState.Action?) -> String {
        switch action {
        case nil:
            return "wait"
        case .start(let entry):
            return "start \(entry.name)"
        case .skip(let skipped, let call):
            for (entry, failure) in skipped { entry.started.fail(failure) }
            let names = skipped.map(\.0.name).joined(separator: ", ")
            let finish = call.map { "; \(describe(.finish($0)))" } ?? ""
            return (names.isEmpty ? "skip" : "skip \(names)") + finish
        case .stop(let entry):
            return "stop \(entry.name)"
        case .finish(let call):
            call.finish()
            let failed = call.failures.map(\.serviceName).joined(separator: ", ")
            return failed.isEmpty ? "finish" : "finish: \(failed) failed"
        }
    }
}
