import AuthenticationCore
import ResponseKit
import ResponseKitTesting
import Testing

/// The use case's core against the fake backend, with latency moved by hand: no test sleeps.
@Suite(.responseChecks)
struct RemoteAuthenticationTests {
    let scheduler = ManualScheduler()
    let tokens = InMemoryTokenStore()
    let backend: FakeAuthenticationBackend
    let useCase: RemoteAuthentication

    init() {
        backend = FakeAuthenticationBackend(
            latency: .init(token: .milliseconds(400), user: .milliseconds(250)), scheduler: scheduler)
        useCase = RemoteAuthentication(api: backend, tokenStore: tokens)
    }

    @Test func fetchesATokenFirst_storesIt_thenFetchesTheUser() throws {
        let response = useCase.authenticate(.ada)
        #expect(backend.requests == ["token ada@example.com"])
        #expect(tokens.token == nil)

        scheduler.advance(by: .milliseconds(400))
        #expect(backend.requests == ["token ada@example.com", "user 1"])
        #expect(tokens.token != nil)
        #expect(!response.isDone)

        scheduler.advance(by: .milliseconds(250))
        #expect(try response.value == .ada)
    }

    @Test func aWrongPassword_fails_storesNoToken_andFetchesNoUser() {
        let response = useCase.authenticate(Credentials(email: "ada@example.com", password: "guess"))
        scheduler.advance(by: .seconds(1))

        #expect(throws: AuthenticationError.wrongCredentials) { try response.value }
        #expect(tokens.token == nil)
        #expect(backend.requests == ["token ada@example.com"])
    }

    @Test func aDisabledAccount_isRefusedAToken() {
        let response = useCase.authenticate(Credentials(email: "charles@example.com", password: "engine"))
        scheduler.advance(by: .seconds(1))

        #expect(throws: AuthenticationError.accountDisabled) { try response.value }
    }

    @Test func aTokenThatCannotBeStored_failsTheSignIn_beforeTheUserIsFetched() {
        tokens.failSaves()

        let response = useCase.authenticate(.ada)
        scheduler.advance(by: .seconds(1))

        #expect(throws: AuthenticationError.tokenNotStored("disk full")) { try response.value }
        #expect(backend.requests == ["token ada@example.com"])
    }

    @Test func aServerErrorOnTheUserEndpoint_failsTheSignIn() {
        let response = useCase.authenticate(.ada)
        scheduler.advance(by: .milliseconds(399))
        backend.failNextRequests(with: .server(status: 500))
        scheduler.advance(by: .seconds(1))

        #expect(throws: AuthenticationError.server(status: 500)) { try response.value }
    }

    @Test func cancelling_dropsTheBackendsPendingAnswer() {
        let response = useCase.authenticate(.ada)

        response.cancel()

        #expect(scheduler.pendingCount == 0)
        #expect(response.error is CancellationError)
    }
}
