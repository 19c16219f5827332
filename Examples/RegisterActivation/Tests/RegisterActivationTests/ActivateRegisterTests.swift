import RegisterActivationCore
import ResponseKit
import ResponseKitTesting
import Testing

/// The interactor, against the fake server, with time moved by hand: no test sleeps.
@Suite(.responseChecks)
struct ActivateRegisterTests {
    let scheduler = ManualScheduler()

    func makeInteractor(latency: Duration = .seconds(2), timeout: Duration = .seconds(5)) -> (
        ActivateRegister, FakeActivationServer
    ) {
        let server = FakeActivationServer(latency: latency, scheduler: scheduler)
        return (ActivateRegister(gateway: server, timeout: timeout, scheduler: scheduler), server)
    }

    func form(
        store: String = "Corner Shop",
        login: String = "ada",
        password: String = "secret",
        register: String = "2"
    ) -> RegisterActivationRequest {
        RegisterActivationRequest(storeName: store, login: login, password: password, registerNumber: register)
    }

    // MARK: - Success

    @Test func returnsAPendingResponseAtOnce_thatSucceedsWhenTheServerAnswers() throws {
        let (activate, _) = makeInteractor(latency: .seconds(2))

        let response = activate.execute(form())
        #expect(!response.isDone)
        scheduler.advance(by: .milliseconds(1999))
        #expect(!response.isDone)
        scheduler.advance(by: .milliseconds(1))

        #expect(
            try response.value
                == ActivatedRegister(storeName: "Corner Shop", registerNumber: 2, licenceKey: "CS-2-5CCD"))
    }

    @Test func trimsTheNames_andMatchesTheStoreWithoutRegardToCase() throws {
        let (activate, _) = makeInteractor()

        let response = activate.execute(form(store: "  corner shop ", login: " ada", register: " 3 "))
        scheduler.advance(by: .seconds(2))

        let register = try response.value
        #expect(register.storeName == "Corner Shop")
        #expect(register.registerNumber == 3)
    }

    // MARK: - The server says no

    @Test func aWrongPassword_failsWithWrongCredentials() {
        let (activate, _) = makeInteractor()

        let response = activate.execute(form(password: "guess"))
        scheduler.advance(by: .seconds(2))

        #expect(throws: RegisterActivationError.wrongCredentials) { try response.value }
    }

    @Test func anUnknownStore_failsSayingWhichStore() {
        let (activate, _) = makeInteractor()

        let response = activate.execute(form(store: "Corner Shoop"))
        scheduler.advance(by: .seconds(2))

        #expect(throws: RegisterActivationError.unknownStore("Corner Shoop")) { try response.value }
    }

    @Test func aRegisterTheStoreDoesNotHave_failsWithNoSuchRegister() {
        let (activate, _) = makeInteractor()

        let response = activate.execute(form(register: "9"))
        scheduler.advance(by: .seconds(2))

        #expect(throws: RegisterActivationError.noSuchRegister(9)) { try response.value }
    }

    // MARK: - Bad input never reaches the server

    @Test(arguments: [
        (
            RegisterActivationRequest(storeName: " ", login: "ada", password: "secret", registerNumber: "2"),
            RegisterActivationError.Field.storeName
        ),
        (
            RegisterActivationRequest(storeName: "Corner Shop", login: "", password: "secret", registerNumber: "2"),
            .login
        ),
        (
            RegisterActivationRequest(storeName: "Corner Shop", login: "ada", password: "", registerNumber: "2"),
            .password
        ),
        (
            RegisterActivationRequest(storeName: "Corner Shop", login: "ada", password: "secret", registerNumber: ""),
            .registerNumber
        ),
    ])
    func anEmptyField_failsAtOnce_withoutAskingTheServer(
        request: RegisterActivationRequest, field: RegisterActivationError.Field
    ) {
        let (activate, server) = makeInteractor()

        let response = activate.execute(request)

        #expect(response.isDone)
        #expect(throws: RegisterActivationError.missingField(field)) { try response.value }
        #expect(server.requestCount == 0)
    }

    @Test(arguments: ["two", "0", "-1", "2.5"])
    func aRegisterNumberThatIsNotAPositiveWholeNumber_failsAtOnce(typed: String) {
        let (activate, server) = makeInteractor()

        let response = activate.execute(form(register: typed))

        #expect(throws: RegisterActivationError.invalidRegisterNumber(typed)) { try response.value }
        #expect(server.requestCount == 0)
    }

    // MARK: - Timeout

    @Test func aServerSlowerThanTheTimeout_failsWithTimedOut_andTheRequestIsCancelled() {
        let (activate, server) = makeInteractor(latency: .seconds(10), timeout: .seconds(5))

        let response = activate.execute(form())
        scheduler.advance(by: .milliseconds(4999))
        #expect(!response.isDone)
        scheduler.advance(by: .milliseconds(1))

        #expect(throws: RegisterActivationError.timedOut(after: .seconds(5))) { try response.value }
        #expect(server.requestCount == 1)
        #expect(scheduler.pendingCount == 0, "the server's late answer must have been dropped")
    }
}
