import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// A gateway faked in one line: the test reads the calls and answers each when it chooses.
@Suite(.responseChecks)
struct StubbedCallsTests {
    struct Credentials: Equatable, Sendable {
        let user: String
        let password: String
    }

    struct User: Equatable, Sendable {
        let name: String
        static let ada = User(name: "Ada")
    }

    struct Failure: Error, Equatable {}

    /// The interactor under test: it asks its gateway, and passes the answer on.
    struct SignIn {
        let authenticate: @Sendable (Credentials) -> Response<User>

        func signIn(_ user: String, _ password: String) -> Response<User> {
            authenticate(Credentials(user: user, password: password)).map { $0 }
        }
    }

    @Test func theIssuesExample_readsTheCall_thenAnswersIt() throws {
        let gateway = StubbedCalls<Credentials, User>()
        let interactor = SignIn(authenticate: gateway.call)
        let response = interactor.signIn("ada", "secret")
        #expect(gateway.calls.map(\.argument) == [Credentials(user: "ada", password: "secret")])
        #expect(!response.isDone)
        gateway.calls[0].succeed(.ada)
        #expect(try response.value == .ada)
    }

    @Test func eachCall_isAnsweredOnItsOwn_inAnyOrder() throws {
        let gateway = StubbedCalls<Int, String>(on: .immediate)
        let first = gateway.call(1)
        let second = gateway.call(2)
        #expect(gateway.calls.map(\.index) == [0, 1])
        gateway.calls[1].fail(Failure())
        #expect(second.error as? Failure == Failure())
        #expect(!first.isDone)
        #expect(gateway.unansweredCalls.map(\.argument) == [1])
        gateway.calls[0].cancel()
        #expect(first.error is CancellationError)
        #expect(gateway.unansweredCalls.isEmpty)
    }

    @Test func aGatewayOfNoArgument_isCalledWithNothing() throws {
        let gateway = StubbedCalls<Void, Int>(on: .immediate)
        let response = gateway.call()
        gateway.calls[0].succeed(7)
        #expect(try response.value == 7)
    }

    @Test func callsFromAnotherThread_areRecordedToo() throws {
        let gateway = StubbedCalls<Int, Int>(on: .immediate)
        let made = Response<Response<Int>>.pending(on: .immediate)
        DispatchQueue.global().async { made.resolver.succeed(gateway.call(5)) }
        let response = try made.response.value
        gateway.calls[0].succeed(10)
        #expect(try response.value == 10)
    }

    @Test func aCallNeverAnswered_isAProblemOfTheTest_namingItsArgument() {
        let problems = ResponseChecks.run {
            let gateway = StubbedCalls<Credentials, User>()
            _ = SignIn(authenticate: gateway.call).signIn("ada", "secret")
        }
        // One problem for the call, none for the responses made for it: the stub speaks for them.
        #expect(problems.map(\.kind) == [.leftoverWork])
        #expect(problems.first?.message.contains("call 0 (Credentials(user: \"ada\", password: \"secret\"))") == true)
        #expect(problems.first?.line == UInt(#line) - 6)
    }

    @Test func aCallAnsweredTwice_isReportedAsASecondResolve() {
        let gateway = StubbedCalls<Int, Int>(on: .immediate)
        let response = gateway.call(1)
        gateway.calls[0].succeed(1)
        expectDiagnostic(.resolvedTwice) {
            gateway.calls[0].succeed(2)
        }
        #expect(response.isSuccessful)
    }
}
