import AuthenticationCore
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitTesting
import Testing

/// The executable's composition root with `--auth-server`: the same screen, over HTTP to a
/// loopback server. Each sign-in is awaited (the main actor suspends, so its callbacks run) for
/// at most 30 seconds.
@Suite(.responseChecks)
@MainActor
struct AuthenticationAppTests {
    let directory = TemporaryDirectory()
    let printed = Recorder<String>()

    @Test func withAnAuthServer_theAppSignsInOverHTTP_andPlansNoFailureOnIt() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "POST /token": .json(200, #"{"token": "tk-ada"}"#),
            "GET /user": .json(200, #"{"id": 1, "name": "Ada Lovelace", "email": "ada@example.com"}"#),
        ])
        defer { #expect(server.stop()) }
        let app = AuthenticationApp(
            tokenFile: directory.path("token"), output: ConsoleOutput { [printed] in printed.record($0) },
            authServer: server.baseURL)

        let attempt = AuthenticationApp.Attempt(
            email: "ada@example.com", password: "secret", plannedFailure: .server(status: 503))
        try await app.run(attempt).timeout(after: .seconds(30)).get()

        #expect(app.backend == nil)
        #expect(server.requests.map(\.line) == ["POST /token", "GET /user"])
        #expect(
            printed.values.joined() == """
                sign in as ada@example.com
                  [audit] Ada Lovelace (id 1) signed in
                  user: Ada Lovelace
                  message: Welcome, Ada Lovelace.

                """)
        #expect(try FileTokenStore(path: directory.path("token")).load()?.value == "tk-ada")
    }

    @Test func withoutOne_theAppUsesTheInProcessFake() {
        let app = AuthenticationApp(tokenFile: directory.path("token"), output: ConsoleOutput { _ in })

        #expect(app.backend != nil)
    }
}
