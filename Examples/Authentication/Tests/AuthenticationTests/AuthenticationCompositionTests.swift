import AuthenticationCore
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitTesting
import Testing

/// The composed use case, end to end: fake backend on a manual clock, token in a real file.
@Suite(.responseChecks)
struct AuthenticationCompositionTests {
    let scheduler = ManualScheduler()
    let directory = TemporaryDirectory()
    let audited = Recorder<AuthenticatedUser>()
    let backend: FakeAuthenticationBackend
    let useCase: any AuthenticationUseCase

    init() {
        backend = FakeAuthenticationBackend(
            latency: .init(token: .milliseconds(400), user: .milliseconds(250)), scheduler: scheduler)
        useCase = AuthenticationComposition.makeUseCase(
            api: backend,
            tokenStore: FileTokenStore(path: directory.path("token")),
            timeout: .seconds(5),
            scheduler: scheduler
        ) { [audited] in audited.record($0) }
    }

    @Test func aSignIn_returnsTheUser_auditsIt_andLeavesAPrivateTokenFile() throws {
        let response = useCase.authenticate(.ada)
        scheduler.advance(by: .seconds(1))

        #expect(try response.value == .ada)
        #expect(audited.values == [.ada])
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path("token"))
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try FileTokenStore(path: directory.path("token")).load()?.value.hasPrefix("tk_1_") == true)
    }

    @Test func badInput_sendsNoRequest_andStartsNoTimer() {
        let response = useCase.authenticate(Credentials(email: "ada@example", password: "secret"))

        #expect(throws: AuthenticationError.invalidEmail) { try response.value }
        #expect(backend.requests.isEmpty)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aBackendSlowerThanTheTimeout_failsWithTimedOut_andAuditsNobody() {
        let slowBackend = FakeAuthenticationBackend(
            latency: .init(token: .seconds(10), user: .zero), scheduler: scheduler)
        let useCase = AuthenticationComposition.makeUseCase(
            api: slowBackend,
            tokenStore: FileTokenStore(path: directory.path("token")),
            timeout: .seconds(5),
            scheduler: scheduler
        ) { [audited] in audited.record($0) }

        let response = useCase.authenticate(.ada)
        scheduler.advance(by: .seconds(5))

        #expect(throws: AuthenticationError.timedOut) { try response.value }
        #expect(audited.values.isEmpty)
        #expect(scheduler.pendingCount == 0, "the backend's late answer must have been dropped")
        #expect(directory.entries.isEmpty, "no token may be stored")
    }

    @Test func theBackend_isTheHTTPGatewayForAServer_andTheFakeOtherwise() throws {
        let server = try #require(URL(string: "http://127.0.0.1:8080"))

        #expect((AuthenticationComposition.makeAPI(server: server) as? HTTPAuthenticationAPI)?.baseURL == server)
        #expect(AuthenticationComposition.makeAPI(server: nil) is FakeAuthenticationBackend)
    }

    @Test func aRefusal_auditsNobody_andStoresNoToken() {
        let response = useCase.authenticate(Credentials(email: "ada@example.com", password: "guess"))
        scheduler.advance(by: .seconds(1))

        #expect(throws: AuthenticationError.wrongCredentials) { try response.value }
        #expect(audited.values.isEmpty)
        #expect(directory.entries.isEmpty)
    }
}
