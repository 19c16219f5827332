import AuthenticationCore
import ResponseKit
import ResponseKitTesting
import Testing

/// The fake backend's own rules, which the demo relies on across restarts.
@Suite(.responseChecks)
struct FakeAuthenticationBackendTests {
    let scheduler = ManualScheduler()

    func makeBackend() -> FakeAuthenticationBackend {
        FakeAuthenticationBackend(
            latency: .init(token: .milliseconds(400), user: .milliseconds(250)), scheduler: scheduler)
    }

    func answer<Value>(_ response: Response<Value>) throws -> Value {
        scheduler.advance(by: .seconds(1))
        return try response.value
    }

    @Test func aTokenIssuedByOneBackend_isAcceptedByAnother_asAfterARestart() throws {
        let token = try answer(makeBackend().fetchToken(.ada))

        #expect(try answer(makeBackend().fetchUser(token)) == .ada)
    }

    @Test func aTokenWithATamperedUser_isRefusedWith401() throws {
        let token = try answer(makeBackend().fetchToken(.ada))
        let forged = AuthToken(value: token.value.replacingOccurrences(of: "tk_1_", with: "tk_2_"))

        #expect(throws: AuthenticationError.server(status: 401)) { try answer(makeBackend().fetchUser(forged)) }
    }

    @Test func eachEndpointAnswersAfterItsOwnLatency() {
        let backend = makeBackend()
        let token = backend.fetchToken(.ada)

        scheduler.advance(by: .milliseconds(399))
        #expect(!token.isDone)
        scheduler.advance(by: .milliseconds(1))
        #expect(token.isSuccessful)
    }

    @Test func plannedFailures_answerTheNextRequests_thenNormalServiceResumes() throws {
        let backend = makeBackend()
        backend.failNextRequests(with: .server(status: 503), count: 2)

        #expect(throws: AuthenticationError.server(status: 503)) { try answer(backend.fetchToken(.ada)) }
        #expect(throws: AuthenticationError.server(status: 503)) { try answer(backend.fetchToken(.ada)) }
        #expect(try answer(backend.fetchToken(.ada)).value.hasPrefix("tk_1_"))
    }
}
