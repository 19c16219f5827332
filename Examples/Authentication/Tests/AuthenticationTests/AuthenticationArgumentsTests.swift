import AuthenticationCore
import Foundation
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
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

    @Test func anAuthServer_isAnHTTPURL_orAMistake() {
        #expect(
            AuthenticationArguments.parse(["--auth-server", "http://127.0.0.1:8080"])
                == .run(.init(authServer: URL(string: "http://127.0.0.1:8080"))))
        #expect(
            AuthenticationArguments.parse(["--auth-server", "ftp://example.com"])
                == .invalid("--auth-server needs an http:// or https:// URL, such as http://127.0.0.1:8080"))
        #expect(
            AuthenticationArguments.parse(["--auth-server"])
                == .invalid("--auth-server needs an http:// or https:// URL, such as http://127.0.0.1:8080"))
    }
}
