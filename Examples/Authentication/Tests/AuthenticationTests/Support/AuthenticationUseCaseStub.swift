import AuthenticationCore
import ResponseKit
import ResponseKitTesting

/// A use case that records the credentials it is given and answers with what the test says.
nonisolated final class AuthenticationUseCaseStub: AuthenticationUseCase {
    let received = Recorder<Credentials>()
    private let answer: @Sendable (Credentials) -> Response<AuthenticatedUser>

    init(answer: @escaping @Sendable (Credentials) -> Response<AuthenticatedUser>) {
        self.answer = answer
    }

    /// Answers every request with the user whose email was given.
    static func succeeding(named name: String = "Ada Lovelace") -> AuthenticationUseCaseStub {
        AuthenticationUseCaseStub { credentials in
            .succeeded(AuthenticatedUser(id: 1, name: name, email: credentials.email), on: .immediate)
        }
    }

    func authenticate(_ credentials: Credentials) -> Response<AuthenticatedUser> {
        received.record(credentials)
        return answer(credentials)
    }
}

extension AuthenticatedUser {
    static let ada = AuthenticatedUser(id: 1, name: "Ada Lovelace", email: "ada@example.com")
}

extension Credentials {
    static let ada = Credentials(email: "ada@example.com", password: "secret")
}
