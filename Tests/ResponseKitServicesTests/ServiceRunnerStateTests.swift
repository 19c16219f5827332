import Testing

@testable import ResponseKitServices

/// The runner's decisions, without a runner: each transition and the action it returns.
struct ServiceRunnerStateTests {
    @Test func launchFinished_announcesReadinessOnce() {
        var state = ServiceRunnerState(startFailurePolicy: .keepRunning)

        #expect(state.launchFinished() == .announceReadiness)
        #expect(state.phase == .running)
        #expect(state.launchFinished() == nil)
    }

    @Test func underKeepRunning_aFailedStartIsNamedByTheReadiness_thenReportedOnItsOwn() {
        var state = ServiceRunnerState(startFailurePolicy: .keepRunning)

        #expect(state.serviceFailedToStart() == nil, "launching: the readiness message names it")
        _ = state.launchFinished()
        #expect(state.serviceFailedToStart() == .reportFailedStarts)
        #expect(state.phase == .running)
    }

    @Test func underShutDown_aFailedStartShutsDown_whileLaunchingOrRunning() {
        var launching = ServiceRunnerState(startFailurePolicy: .shutDown)
        #expect(launching.serviceFailedToStart() == .shutDown)
        #expect(launching.phase == .shuttingDown)
        #expect(launching.launchFinished() == nil, "no readiness after the shutdown began")

        var running = ServiceRunnerState(startFailurePolicy: .shutDown)
        _ = running.launchFinished()
        #expect(running.serviceFailedToStart() == .shutDown)
    }

    @Test(arguments: [ServiceRunner.StartFailurePolicy.keepRunning, .shutDown])
    func aFailedStartDuringTheShutdown_changesNothing(policy: ServiceRunner.StartFailurePolicy) {
        var state = ServiceRunnerState(startFailurePolicy: policy)
        _ = state.shutdownRequested(forcedStatus: 143)

        #expect(state.serviceFailedToStart() == nil)
        #expect(state.phase == .shuttingDown)
    }

    @Test func theFirstRequestShutsDown_theSecondForcesTheExit_andLaterOnesChangeNothing() {
        var state = ServiceRunnerState(startFailurePolicy: .keepRunning)

        #expect(state.shutdownRequested(forcedStatus: 143) == .shutDown)
        #expect(state.shutdownRequested(forcedStatus: 130) == .exit(130))
        #expect(state.phase == .exited)
        #expect(state.shutdownRequested(forcedStatus: 143) == nil)
        #expect(state.shutdownFinished(status: 0) == nil, "the forced exit came first")
    }

    @Test func theShutdownFinishes_withTheStatusTheAnswersCallFor() {
        var state = ServiceRunnerState(startFailurePolicy: .keepRunning)
        _ = state.shutdownRequested(forcedStatus: 143)

        #expect(state.shutdownFinished(status: 1) == .exit(1))
        #expect(state.phase == .exited)
    }

    // MARK: - Reload

    @Test func aReloadRequest_reloadsOnlyWhileRunning() {
        var state = ServiceRunnerState(startFailurePolicy: .keepRunning)
        #expect(state.reloadRequested() == nil, "launching")

        _ = state.launchFinished()
        #expect(state.reloadRequested() == .reload)
        #expect(state.phase == .reloading(isRequestedAgain: false))

        _ = state.shutdownRequested(forcedStatus: 143)
        #expect(state.reloadRequested() == nil, "shutting down")
        #expect(state.reloadFinished(failure: nil) == nil, "the shutdown won")
    }

    @Test func requestsDuringAReload_makeOneMoreReload() {
        var state = ServiceRunnerState(startFailurePolicy: .keepRunning)
        _ = state.launchFinished()
        _ = state.reloadRequested()

        #expect(state.reloadRequested() == nil)
        #expect(state.reloadRequested() == nil)
        #expect(state.reloadFinished(failure: "a failed") == .finishReload(failure: "a failed", reloadsAgain: true))
        #expect(state.phase == .reloading(isRequestedAgain: false))
        #expect(state.reloadFinished(failure: nil) == .finishReload(failure: nil, reloadsAgain: false))
        #expect(state.phase == .running)
    }

    @Test func aFailedStartDuringAReload_isReportedAtOnce() {
        var state = ServiceRunnerState(startFailurePolicy: .keepRunning)
        _ = state.launchFinished()
        _ = state.reloadRequested()

        #expect(state.serviceFailedToStart() == .reportFailedStarts)
    }
}
