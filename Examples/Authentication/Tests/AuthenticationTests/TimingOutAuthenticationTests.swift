import AuthenticationCore
import ResponseKit
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct TimingOutAuthenticationTests {
    let scheduler = ManualScheduler()

    @Test func aSlowUseCase_failsWithTimedOut_atTheLimit_andIsCancelled() {
        let slow = StubbedCalls<Credentials, AuthenticatedUser>(on: .immediate)  // never answers
        let useCase = AuthenticationUseCaseStub(answer: slow.call).timingOut(after: .seconds(5), scheduler: scheduler)

        let response = useCase.authenticate(.ada)
        scheduler.advance(by: .milliseconds(4999))
        #expect(!response.isDone)
        scheduler.advance(by: .milliseconds(1))

        #expect(throws: AuthenticationError.timedOut) { try response.value }
        #expect(slow.calls[0].response.isCancelled)
    }

    @Test func anAnswerInTime_passesThrough_andStopsTheTimer() throws {
        let useCase = AuthenticationUseCaseStub.succeeding().timingOut(after: .seconds(5), scheduler: scheduler)

        #expect(try useCase.authenticate(.ada).value == .ada)
        #expect(scheduler.pendingCount == 0)
    }
}
