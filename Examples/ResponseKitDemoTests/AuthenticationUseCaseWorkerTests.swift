import AuthenticationCore
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitDemoCore
import ResponseKitTesting
import SignInCore
import Testing

/// The adapter from the sign-in module to the authentication use case, on the fake backend whose
/// latency is moved by hand, and a real token file. Each call lets the backend answer, then
/// blocks on its response.
@Suite(.responseChecks)
struct AuthenticationUseCaseWorkerTests {
    let directory = TemporaryDirectory()
    let scheduler = ManualScheduler()
    var tokenStore: FileTokenStore { FileTokenStore(path: directory.path("session/token")) }

    /// A worker as the demo builds it; a new one stands for a restart of the app.
    func makeWorker(backend: FakeAuthenticationBackend? = nil) -> AuthenticationUseCaseWorker {
        let backend = backend ?? FakeAuthenticationBackend(scheduler: scheduler)
        let useCase = AuthenticationComposition.makeUseCase(api: backend, tokenStore: tokenStore, scheduler: scheduler)
        return AuthenticationUseCaseWorker(useCase: useCase, api: backend, tokenStore: tokenStore)
    }

    /// Lets the backend answer both requests of a sign-in, then blocks on the response.
    func answer<Value>(_ response: Response<Value>) throws -> Value {
        scheduler.advance(by: .seconds(1))
        return try response.value
    }

    @Test func aUsernameWithoutADomain_signsInOnTheSampleDomain() throws {
        #expect(try answer(makeWorker().signIn(username: "ada", password: "secret")) == User(name: "Ada Lovelace"))
    }

    @Test func nobodyIsSignedIn_beforeASignIn() throws {
        #expect(try answer(makeWorker().currentUser()) == nil)
    }

    @Test func theSession_survivesARestart() throws {
        _ = try answer(makeWorker().signIn(username: "ada@example.com", password: "secret"))

        #expect(try answer(makeWorker().currentUser()) == User(name: "Ada Lovelace"))
    }

    @Test func aTokenTheBackendRefuses_signsNobodyIn_andIsDeleted() throws {
        try tokenStore.save(AuthToken(value: "tk_1_1_forged"))

        #expect(try answer(makeWorker().currentUser()) == nil)
        #expect(try tokenStore.load() == nil)
    }

    @Test func signOut_deletesTheToken() throws {
        let worker = makeWorker()
        _ = try answer(worker.signIn(username: "ada", password: "secret"))

        try answer(worker.signOut())

        #expect(try tokenStore.load() == nil)
        #expect(try answer(worker.currentUser()) == nil)
    }

    @Test func aWrongPassword_isTheSignInModulesWrongCredentials() {
        #expect(throws: SignInError.wrongCredentials) {
            try answer(makeWorker().signIn(username: "ada", password: "guess"))
        }
    }

    @Test func aServerError_isTheSignInModulesServiceUnavailable() {
        let backend = FakeAuthenticationBackend(scheduler: scheduler)
        backend.failNextRequests(with: .server(status: 503))

        #expect(throws: SignInError.serviceUnavailable) {
            try answer(makeWorker(backend: backend).signIn(username: "ada", password: "secret"))
        }
    }
}
