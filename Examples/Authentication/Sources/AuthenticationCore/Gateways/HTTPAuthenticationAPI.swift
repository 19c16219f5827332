import Foundation
import ResponseKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The authentication backend over HTTP, with `URLSession`: the gateway a shipping app uses in
/// place of ``FakeAuthenticationBackend``.
///
/// The wire protocol (JSON bodies, paths relative to ``baseURL``):
///
/// | Request | Answer |
/// | --- | --- |
/// | `POST /token` with `{"email": "…", "password": "…"}` | 200 `{"token": "…"}`; 401 wrong credentials; 403 account disabled |
/// | `GET /user` with `Authorization: Bearer <token>` | 200 `{"id": 1, "name": "…", "email": "…"}`; 401 a token it refuses |
///
/// Any other status fails with ``AuthenticationError/server(status:)`` (a refused token too, as
/// the fake backend does: `.server(status: 401)`). A body that is not the JSON above fails with
/// ``AuthenticationError/malformedResponse(_:)``; a server that cannot be reached with
/// ``AuthenticationError/unreachable(_:)``, naming its host and port; one that does not answer
/// within ``timeout`` with ``AuthenticationError/timedOut``. Cancelling a response cancels its
/// `URLSessionTask`: the request stops, and the response fails with `CancellationError` only.
///
/// ```swift
/// let api = HTTPAuthenticationAPI(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let useCase = AuthenticationComposition.makeUseCase(api: api, tokenStore: FileTokenStore(path: path))
/// ```
///
/// Every member is safe to call from any thread. Responses deliver their callbacks on the
/// executor given to ``init(baseURL:timeout:scheduler:executor:)``.
public nonisolated final class HTTPAuthenticationAPI: AuthenticationAPI {
    /// Where the endpoints are: `<baseURL>/token` and `<baseURL>/user`.
    public let baseURL: URL
    /// How long a request may take before it fails with ``AuthenticationError/timedOut`` (and its
    /// task is cancelled).
    public let timeout: Duration
    /// Where the responses deliver their callbacks.
    public let executor: ResponseExecutor
    let scheduler: any ResponseScheduler
    let session: URLSession

    /// Makes a gateway for the backend at `baseURL`, with a session of its own (no cache, no
    /// cookies: nothing of the exchange outlives it).
    ///
    /// The time limit is ResponseKit's `timeout(after:scheduler:)`, not only the session's:
    /// `URLSession` on Linux counts its request timeout in whole seconds and ignores the
    /// request's own, so the session's limit (rounded up) is a backstop that never fires first.
    ///
    /// - Parameters:
    ///   - baseURL: the backend, such as `http://127.0.0.1:8080`; see ``baseURL(parsing:)``.
    ///   - timeout: how long a request may take; 10 seconds by default.
    ///   - scheduler: the source of time for the timeout.
    ///   - executor: where the responses deliver their callbacks; ``ResponseKit/ResponseExecutor/main``
    ///     by default.
    public init(
        baseURL: URL, timeout: Duration = .seconds(10), scheduler: any ResponseScheduler = DispatchScheduler(),
        executor: ResponseExecutor = .main
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.scheduler = scheduler
        self.executor = executor
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = (Self.seconds(timeout) + 1).rounded(.up)
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()  // requests in flight still finish; the session then goes
    }

    /// A backend URL as typed on the command line (`--auth-server`), or `nil` when it is not an
    /// `http` or `https` URL with a host and without a query or fragment.
    ///
    /// - Parameter text: as typed, such as `http://127.0.0.1:8080` or `https://auth.example.com/v1`.
    /// - Returns: the URL, or `nil` when it cannot be a backend's.
    public static func baseURL(parsing text: String) -> URL? {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil
        else { return nil }
        return components.url
    }

    /// `POST <baseURL>/token` with the credentials as JSON; the token from a 200 answer.
    ///
    /// - Parameter credentials: the email and password, sent as typed.
    /// - Returns: the token, or ``AuthenticationError/wrongCredentials`` (401),
    ///   ``AuthenticationError/accountDisabled`` (403), or another ``AuthenticationError``.
    public func fetchToken(_ credentials: Credentials) -> Response<AuthToken> {
        var request = makeRequest(method: "POST", path: "token")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Self.json(["email": credentials.email, "password": credentials.password])
        return send(request).map { reply in
            switch reply.status {
            case 200: return AuthToken(value: try reply.decode(TokenBody.self).token)
            case 401: throw AuthenticationError.wrongCredentials
            case 403: throw AuthenticationError.accountDisabled
            default: throw AuthenticationError.server(status: reply.status)
            }
        }
    }

    /// `GET <baseURL>/user` with the token as a bearer credential; the user from a 200 answer.
    ///
    /// - Parameter token: a token from ``fetchToken(_:)``.
    /// - Returns: the user, or `.server(status: 401)` when the backend refuses the token, or
    ///   another ``AuthenticationError``.
    public func fetchUser(_ token: AuthToken) -> Response<AuthenticatedUser> {
        var request = makeRequest(method: "GET", path: "user")
        request.setValue("Bearer \(token.value)", forHTTPHeaderField: "Authorization")
        return send(request).map { reply in
            guard reply.status == 200 else { throw AuthenticationError.server(status: reply.status) }
            let user = try reply.decode(UserBody.self)
            return AuthenticatedUser(id: user.id, name: user.name, email: user.email)
        }
    }

    private func makeRequest(method: String, path: String) -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func json(_ fields: [String: String]) -> Data {
        // Strings always encode: the encoder cannot fail on a dictionary of them.
        (try? JSONEncoder().encode(fields)) ?? Data()
    }
}
