import AuthenticationCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct CredentialsTests {
    @Test(arguments: ["ada@example.com", "a.b+c@mail.example.org"])
    func aWellFormedAddressAndAPassword_pass(email: String) throws {
        try Credentials(email: email, password: "secret").validate()
    }

    @Test(arguments: [
        "", "ada", "ada@", "@example.com", "ada@example", "ada@example.", "ada@.com", "a@b@example.com",
        "ada @example.com",
    ])
    func aMalformedAddress_isRefused(email: String) {
        #expect(throws: AuthenticationError.invalidEmail) {
            try Credentials(email: email, password: "secret").validate()
        }
    }

    @Test func anEmptyPassword_isRefused() {
        #expect(throws: AuthenticationError.emptyPassword) {
            try Credentials(email: "ada@example.com", password: "").validate()
        }
    }
}
