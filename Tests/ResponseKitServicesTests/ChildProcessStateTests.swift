import ResponseKit
import Testing

@testable import ResponseKitServices

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child's decisions, without a child: which signal each transition calls for, which timer it
/// hands back, whom it tells.
struct ChildProcessStateTests {
    typealias Termination = ChildProcess.Termination

    @Test func end_sendsSIGTERMOnce_thenSIGKILLWhenTheGracePeriodEnds() {
        var state = ChildProcessState()

        #expect(state.endRequested() == SIGTERM)
        #expect(state.endRequested() == nil, "ending began already")
        #expect(state.killTimerArmed(ScheduledJob {}) == nil, "kept until the child exits")
        #expect(state.gracePeriodEnded() == SIGKILL)
        #expect(state.gracePeriodEnded() == nil)
    }

    @Test func theGracePeriodEnding_beforeTheTimerIsKept_sendsSIGKILL_andTheTimerIsHandedBack() {
        var state = ChildProcessState()
        _ = state.endRequested()

        #expect(state.gracePeriodEnded() == SIGKILL)
        #expect(state.killTimerArmed(ScheduledJob {}) != nil, "cancel it: it fired already")
    }

    @Test func anExit_handsBackTheKillTimer_andNoSignalIsSentAfterIt() {
        var state = ChildProcessState()
        _ = state.endRequested()
        let cancelled = LockedBox.make(false)
        _ = state.killTimerArmed(ScheduledJob { cancelled.withLock { $0 = true } })

        state.childExited()?.cancel()

        #expect(cancelled.withLock { $0 })
        #expect(state.signalRequested(SIGHUP) == nil)
        #expect(state.endRequested() == nil)
        #expect(state.gracePeriodEnded() == nil)
    }

    @Test func signal_isSentOnlyBeforeTheExit() {
        var state = ChildProcessState()

        #expect(state.signalRequested(SIGHUP) == SIGHUP)
        _ = state.childExited()
        #expect(state.signalRequested(SIGHUP) == nil)
    }

    @Test func whoeverWaits_isToldOnceReaped_andLaterReadersAtOnce() {
        var state = ChildProcessState()
        let (early, earlyResolver) = Response<Termination>.pending(on: .immediate)
        let (late, lateResolver) = Response<Termination>.pending(on: .immediate)

        #expect(state.terminationRequested(earlyResolver) == nil)
        _ = state.childExited()
        #expect(state.terminationRequested(lateResolver) == nil, "exited, not yet reaped")
        let told = state.childReaped(.success(.exited(status: 0)))

        #expect(told.count == 2)
        for resolver in told { resolver.succeed(.exited(status: 0)) }
        #expect(early.isSuccessful && late.isSuccessful)
        let (after, afterResolver) = Response<Termination>.pending(on: .immediate)
        #expect(state.terminationRequested(afterResolver) == .success(.exited(status: 0)))
        _ = after
    }

    @Test func theWaitStatus_isDecodedAsTheSystemsMacrosDo() {
        #expect(Termination(waitStatus: 3 << 8) == .exited(status: 3))
        #expect(Termination(waitStatus: SIGTERM) == .killed(by: SIGTERM))
        #expect(Termination(waitStatus: SIGKILL | 0x80) == .killed(by: SIGKILL), "a core dump")
    }
}
