import AuthenticationCore
import Testing

struct AuthenticationArgumentsTests {
    @Test func noArguments_runTheTour_withTheDefaultTokenFile() {
        #expect(AuthenticationArguments.parse([]) == .run(.init()))
    }

    @Test func anEmailAndAPassword_areOneSignIn_andTheTokenFileMayBeGivenAnywhere() {
        #expect(
            AuthenticationArguments.parse(["ada@example.com", "secret", "--token-file", "/tmp/token"])
                == .run(.init(tokenFile: "/tmp/token", credentials: ["ada@example.com", "secret"])))
    }

    @Test func helpAndMistakes_areTold() {
        #expect(AuthenticationArguments.parse(["-h"]) == .help)
        #expect(AuthenticationArguments.parse(["--token-file"]) == .invalid("--token-file needs a path"))
        #expect(AuthenticationArguments.parse(["--fast"]) == .invalid("unknown option --fast"))
        #expect(
            AuthenticationArguments.parse(["ada@example.com"])
                == .invalid("expected an email and a password, or neither; got 1 arguments"))
    }
}
