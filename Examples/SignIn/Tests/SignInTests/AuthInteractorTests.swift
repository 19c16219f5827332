import ResponseKit
import ResponseKitTesting
import SignInCore
import Testing

/// The interactor against the fake worker, whose latency is moved by hand: no test sleeps.
@Suite(.responseChecks)
struct AuthInteractorTests {
    let scheduler = ManualScheduler()
    let worker: FakeAuthenticationWorker
    let interactor: AuthInteractor

    init() {
        worker = FakeAuthenticationWorker(
            accounts: ["ada": "secret"], latency: .milliseconds(300), scheduler: scheduler)
        interactor = AuthInteractor(worker: worker)
    }

    /// Lets the worker answer, then blocks on the response.
    func answer<Value>(_ response: Response<Value>) throws -> Value {
        scheduler.advance(by: .milliseconds(300))
        return try response.value
    }

    // MARK: - checkStatus

    @Test func checkStatus_isSignedOut_whenNobodySignedIn() throws {
        #expect(try answer(interactor.checkStatus()) == .signedOut)
    }

    @Test func checkStatus_isSignedIn_afterASignIn() throws {
        _ = try answer(interactor.signIn(username: "ada", password: "secret"))

        #expect(try answer(interactor.checkStatus()) == .signedIn(User(name: "ada")))
    }

    @Test func checkStatus_fails_whenTheServiceCannotBeReached() {
        worker.isReachable = false

        #expect(throws: SignInError.serviceUnavailable) { try answer(interactor.checkStatus()) }
    }

    // MARK: - signIn

    @Test func signIn_answersOnlyOnceTheWorkerHas() throws {
        let response = interactor.signIn(username: "ada", password: "secret")

        scheduler.advance(by: .milliseconds(299))
        #expect(!response.isDone)
        scheduler.advance(by: .milliseconds(1))
        #expect(try response.value == .signedIn(User(name: "ada")))
    }

    @Test func signIn_ignoresSpacesAroundTheUsername() throws {
        #expect(try answer(interactor.signIn(username: "  ada ", password: "secret")) == .signedIn(User(name: "ada")))
    }

    @Test func signIn_withAWrongPassword_fails_andNobodyIsSignedIn() throws {
        #expect(throws: SignInError.wrongCredentials) {
            try answer(interactor.signIn(username: "ada", password: "guess"))
        }

        #expect(try answer(interactor.checkStatus()) == .signedOut)
    }

    @Test(arguments: [
        ("", "secret", SignInError.missingUsername), ("   ", "secret", .missingUsername), ("ada", "", .missingPassword),
    ])
    func signIn_withAnEmptyField_failsAtOnce_withoutAskingTheWorker(
        username: String, password: String, error: SignInError
    ) {
        let response = interactor.signIn(username: username, password: password)

        #expect(response.isDone)
        #expect(throws: error) { try response.value }
        #expect(scheduler.pendingCount == 0)
    }

    // MARK: - signOut

    @Test func signOut_leavesNobodySignedIn() throws {
        _ = try answer(interactor.signIn(username: "ada", password: "secret"))

        #expect(try answer(interactor.signOut()) == .signedOut)
        #expect(try answer(interactor.checkStatus()) == .signedOut)
    }

    @Test func signOut_fails_whenTheServiceCannotBeReached() {
        worker.isReachable = false

        #expect(throws: SignInError.serviceUnavailable) { try answer(interactor.signOut()) }
    }
}
