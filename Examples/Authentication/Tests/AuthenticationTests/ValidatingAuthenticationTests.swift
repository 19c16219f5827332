import AuthenticationCore
import ResponseKit
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct ValidatingAuthenticationTests {
    @Test func validCredentials_reachTheWrappedUseCase_andItsUserComesBack() throws {
        let wrapped = AuthenticationUseCaseStub.succeeding()

        let user = try wrapped.validating().authenticate(.ada).value

        #expect(user == .ada)
        #expect(wrapped.received.values == [.ada])
    }

    @Test(arguments: [
        (Credentials(email: "ada", password: "secret"), AuthenticationError.invalidEmail),
        (Credentials(email: "ada@example.com", password: ""), .emptyPassword),
    ])
    func badCredentials_failAtOnce_withoutReachingTheWrappedUseCase(
        credentials: Credentials, error: AuthenticationError
    ) {
        let wrapped = AuthenticationUseCaseStub.succeeding()

        let response = wrapped.validating().authenticate(credentials)

        #expect(response.isDone)
        #expect(throws: error) { try response.value }
        #expect(wrapped.received.values.isEmpty)
    }

    @Test func aUserForAnotherEmail_isRefused() {
        let wrapped = AuthenticationUseCaseStub { _ in
            .succeeded(AuthenticatedUser(id: 2, name: "Grace Hopper", email: "grace@example.com"), on: .immediate)
        }

        #expect(throws: AuthenticationError.unexpectedUser) { try wrapped.validating().authenticate(.ada).value }
    }

    @Test func theEmailsAreComparedWithoutRegardToCase() throws {
        let wrapped = AuthenticationUseCaseStub.succeeding()

        let user = try wrapped.validating().authenticate(Credentials(email: "Ada@Example.com", password: "secret"))
            .value

        #expect(user.email == "Ada@Example.com")
    }

    @Test func theWrappedUseCasesFailure_passesThrough() {
        let wrapped = AuthenticationUseCaseStub { _ in .failed(AuthenticationError.wrongCredentials, on: .immediate) }

        #expect(throws: AuthenticationError.wrongCredentials) { try wrapped.validating().authenticate(.ada).value }
    }
}
