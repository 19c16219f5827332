import AuthenticationCore
import ResponseKit
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct InterceptingAuthenticationTests {
    let reported = Recorder<AuthenticatedUser>()

    @Test func reportsTheUser_beforeTheResponseSucceeds_withTheOutcomeUnchanged() throws {
        let (answer, resolver) = Response<AuthenticatedUser>.pending(on: .immediate)
        let useCase = AuthenticationUseCaseStub { _ in answer }.intercepting { [reported] in reported.record($0) }

        let response = useCase.authenticate(.ada)
        #expect(reported.values.isEmpty)
        resolver.succeed(.ada)

        #expect(try response.value == .ada)
        #expect(reported.values == [.ada])
    }

    @Test func reportsNothing_whenTheSignInFails() {
        let useCase = AuthenticationUseCaseStub { _ in .failed(AuthenticationError.wrongCredentials, on: .immediate) }
            .intercepting { [reported] in reported.record($0) }

        #expect(throws: AuthenticationError.wrongCredentials) { try useCase.authenticate(.ada).value }
        #expect(reported.values.isEmpty)
    }
}
