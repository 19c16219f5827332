import AuthenticationCore
import Foundation
import ResponseKit
import ResponseKitTesting
import Testing

/// The HTTP gateway against a loopback server the tests start and stop: the wire protocol, each
/// kind of failure, and cancellation. Responses deliver `.immediate`ly and every read waits at
/// most 30 seconds, which matters only when the gateway is broken; the one real timer is the
/// gateway's own half-second timeout, in the test of a slow server.
@Suite(.responseChecks)
struct HTTPAuthenticationAPITests {
    static let adaToken = #"{"token": "tk-ada"}"#
    static let adaUser = #"{"id": 1, "name": "Ada Lovelace", "email": "ada@example.com"}"#

    /// Runs `body` with a server answering `routes` and a gateway pointing at it, then stops the
    /// server and checks that all its threads ended.
    func withServer(
        _ routes: [String: LoopbackHTTPServer.Reply], timeout: Duration = .seconds(30),
        _ body: (LoopbackHTTPServer, HTTPAuthenticationAPI) throws -> Void
    ) throws {
        let server = try LoopbackHTTPServer(routes: routes)
        defer { #expect(server.stop(), "the loopback server's threads did not end") }
        try body(server, HTTPAuthenticationAPI(baseURL: server.baseURL, timeout: timeout, executor: .immediate))
    }

    /// The response's value, failing with `ResponseError.timedOut` rather than hanging.
    func answer<Value>(_ response: Response<Value>) throws -> Value {
        try response.wait(timeout: .seconds(30))
    }

    // MARK: - The protocol

    @Test func aSignIn_postsTheCredentialsAsJSON_thenFetchesTheUserWithTheBearerToken() throws {
        let routes: [String: LoopbackHTTPServer.Reply] = [
            "POST /token": .json(200, Self.adaToken), "GET /user": .json(200, Self.adaUser),
        ]
        try withServer(routes) { server, api in
            let token = try answer(api.fetchToken(.ada))
            let user = try answer(api.fetchUser(token))

            #expect(token.value == "tk-ada")
            #expect(user == .ada)
            let requests = server.requests
            try #require(requests.count == 2)
            #expect(requests[0].line == "POST /token")
            #expect(requests[0].headers["content-type"] == "application/json")
            let sent = try JSONDecoder().decode([String: String].self, from: Data(requests[0].body.utf8))
            #expect(sent == ["email": "ada@example.com", "password": "secret"])
            #expect(requests[1].line == "GET /user")
            #expect(requests[1].headers["authorization"] == "Bearer tk-ada")
        }
    }

    @Test func theEndpointsAreRelativeToTheBaseURLsPath() throws {
        let server = try LoopbackHTTPServer(routes: ["POST /v1/token": .json(200, Self.adaToken)])
        defer { #expect(server.stop()) }
        let api = HTTPAuthenticationAPI(baseURL: server.baseURL.appendingPathComponent("v1"), executor: .immediate)

        #expect(try answer(api.fetchToken(.ada)).value == "tk-ada")
    }

    @Test(arguments: [
        (401, AuthenticationError.wrongCredentials),
        (403, .accountDisabled),
        (500, .server(status: 500)),
        (404, .server(status: 404)),
    ])
    func aTokenRefusal_isTheErrorItsStatusMeans(status: Int, expected: AuthenticationError) throws {
        try withServer(["POST /token": .json(status, #"{"error": "no"}"#)]) { _, api in
            #expect(throws: expected) { try answer(api.fetchToken(.ada)) }
        }
    }

    @Test func aRefusedToken_is401FromTheUserEndpoint_asTheFakeBackendSays() throws {
        try withServer(["GET /user": .json(401)]) { _, api in
            #expect(throws: AuthenticationError.server(status: 401)) {
                try answer(api.fetchUser(AuthToken(value: "forged")))
            }
        }
    }

    // MARK: - Answers that cannot be read

    @Test(arguments: [
        ("POST /token", "<html>oops</html>", "POST /token: the body is not JSON"),
        ("POST /token", #"{"access": "tk"}"#, #"POST /token: no field "token""#),
        (
            "GET /user", #"{"id": "one", "name": "Ada", "email": "ada@example.com"}"#,
            #"GET /user: the field "id" has the wrong type"#
        ),
        ("GET /user", "", "GET /user: the body is not JSON"),
    ])
    func aMalformedAnswer_failsWithMalformedResponse_sayingWhatIsWrong(
        route: String, body: String, expected: String
    ) throws {
        try withServer([route: .json(200, body)]) { _, api in
            let response: Response<Void> =
                route == "GET /user"
                ? api.fetchUser(AuthToken(value: "t")).map { _ in } : api.fetchToken(.ada).map { _ in }

            #expect(throws: AuthenticationError.malformedResponse(expected)) { try answer(response) }
        }
    }

    // MARK: - Servers that do not answer

    @Test func aServerThatIsDown_failsWithUnreachable_namingItsHostAndPort() throws {
        let port = try LoopbackHTTPServer.unusedPort()
        let api = HTTPAuthenticationAPI(baseURL: URL(string: "http://127.0.0.1:\(port)")!, executor: .immediate)

        #expect(throws: AuthenticationError.unreachable("127.0.0.1:\(port): connection refused")) {
            try answer(api.fetchToken(.ada))
        }
    }

    @Test func anAnswerHeldWithinTheTimeout_isWaitedFor() throws {
        try withServer(["POST /token": .json(200, Self.adaToken).held()]) { server, api in
            let response = api.fetchToken(.ada)
            try #require(server.waitForRequest(), "the server never received the request")
            #expect(!response.isDone, "the server holds its answer")

            server.release()

            #expect(try answer(response).value == "tk-ada")
        }
    }

    @Test func aServerSlowerThanTheTimeout_failsWithTimedOut_andTheRequestIsDropped() throws {
        // The gateway's own limit, on a manual clock: a minute, so that URLSession's backstop
        // (the limit plus a second) cannot be what ends the request within this test's bounds.
        let scheduler = ManualScheduler()
        let server = try LoopbackHTTPServer(routes: ["POST /token": .json(200, Self.adaToken).held()])
        defer { #expect(server.stop(), "the loopback server's threads did not end") }
        let api = HTTPAuthenticationAPI(
            baseURL: server.baseURL, timeout: .seconds(60), scheduler: scheduler, executor: .immediate)

        let response = api.fetchToken(.ada)
        try #require(server.waitForRequest(), "the server never received the request")
        #expect(!response.isDone, "the server holds its answer")

        _ = scheduler.advance(by: .seconds(60))

        #expect(response.isDone, "the limit passed: the response fails at once, not when URLSession gives up")
        #expect(throws: AuthenticationError.timedOut) { try answer(response) }
        #expect(server.waitForClosedConnection(), "the client must close the connection it gave up on")
    }

    @Test func cancellingMidRequest_failsWithCancellation_only_andClosesTheConnection() throws {
        try withServer(["POST /token": .json(200, Self.adaToken).held()]) { server, api in
            let outcomes = Recorder<String>()
            let response = api.fetchToken(.ada)
            response.onCompletion { _ in outcomes.record("token") }.onFailure { outcomes.record("\($0)") }
            try #require(server.waitForRequest(), "the server never received the request")

            response.cancel()

            #expect(throws: CancellationError.self) { try answer(response) }
            #expect(server.waitForClosedConnection(), "cancelling must stop the request")
            #expect(outcomes.values == ["\(CancellationError())"])
        }
    }

    // MARK: - The base URL

    @Test(arguments: ["http://127.0.0.1:8080", "https://auth.example.com/v1", "HTTP://localhost"])
    func aBaseURL_isAnHTTPURLWithAHost(text: String) {
        #expect(HTTPAuthenticationAPI.baseURL(parsing: text)?.absoluteString == text)
    }

    @Test(arguments: ["127.0.0.1:8080", "ftp://example.com", "http://", "http://host/?q=1", "http://host/#top", ""])
    func anythingElse_isNoBaseURL(text: String) {
        #expect(HTTPAuthenticationAPI.baseURL(parsing: text) == nil)
    }
}
