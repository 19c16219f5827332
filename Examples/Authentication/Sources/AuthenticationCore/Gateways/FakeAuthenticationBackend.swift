import ExampleSupport
import ResponseKit

/// A stand-in for the authentication backend, in memory, with the latency and failures of a real
/// one: each endpoint answers after its own delay, wrong passwords and disabled accounts are
/// refused, and failures (an overloaded server) can be planned for the next requests.
///
/// Tokens are signed, as a JSON Web Token is: the user endpoint checks the signature rather than
/// a table of issued tokens, so a token stays valid across restarts of the process.
///
/// Time comes from a ``ResponseKit/ResponseScheduler``: real time in the example,
/// `ManualScheduler` in tests, so a test of a slow backend never sleeps. Cancelling a request
/// drops its pending answer.
public nonisolated final class FakeAuthenticationBackend: AuthenticationAPI {
    /// An account the backend knows.
    public struct Account: Sendable {
        /// The user the account belongs to.
        public let user: AuthenticatedUser
        /// The account's password.
        public let password: String
        /// Whether the account is refused a token.
        public let isDisabled: Bool

        /// Makes an account.
        ///
        /// - Parameters:
        ///   - user: the user it belongs to.
        ///   - password: its password.
        ///   - isDisabled: whether it is refused a token.
        public init(user: AuthenticatedUser, password: String, isDisabled: Bool = false) {
            self.user = user
            self.password = password
            self.isDisabled = isDisabled
        }
    }

    /// How long each endpoint takes to answer.
    public struct Latency: Sendable {
        /// The token endpoint: 400 ms by default (it checks a password hash).
        public var token: Duration
        /// The user endpoint: 250 ms by default.
        public var user: Duration

        /// Makes latencies.
        ///
        /// - Parameters:
        ///   - token: the token endpoint's.
        ///   - user: the user endpoint's.
        public init(token: Duration = .milliseconds(400), user: Duration = .milliseconds(250)) {
            self.token = token
            self.user = user
        }

        /// No delay at all.
        public static let none = Latency(token: .zero, user: .zero)
    }

    /// The example's accounts: ada@example.com / secret, grace@example.com / cobol, and a disabled
    /// charles@example.com / engine.
    public static let sampleAccounts = [
        Account(user: AuthenticatedUser(id: 1, name: "Ada Lovelace", email: "ada@example.com"), password: "secret"),
        Account(user: AuthenticatedUser(id: 2, name: "Grace Hopper", email: "grace@example.com"), password: "cobol"),
        Account(
            user: AuthenticatedUser(id: 3, name: "Charles Babbage", email: "charles@example.com"), password: "engine",
            isDisabled: true),
    ]

    private struct State {
        var issued = 0
        var plannedFailures: [AuthenticationError] = []
        var requests: [String] = []
    }

    private let accounts: [Account]
    private let latency: Latency
    private let scheduler: any ResponseScheduler
    private let state = Locked(State())

    /// Makes a backend.
    ///
    /// - Parameters:
    ///   - accounts: the accounts it knows.
    ///   - latency: how long each endpoint takes.
    ///   - scheduler: the source of time; `ManualScheduler` in tests.
    public init(
        accounts: [Account] = FakeAuthenticationBackend.sampleAccounts,
        latency: Latency = Latency(),
        scheduler: any ResponseScheduler = DispatchScheduler()
    ) {
        self.accounts = accounts
        self.latency = latency
        self.scheduler = scheduler
    }

    /// Makes the next `count` requests, to either endpoint, fail with `error`.
    ///
    /// - Parameters:
    ///   - error: the failure, such as `.server(status: 503)`.
    ///   - count: how many requests fail.
    public func failNextRequests(with error: AuthenticationError, count: Int = 1) {
        state.withLock { $0.plannedFailures += Array(repeating: error, count: count) }
    }

    /// The requests received so far, oldest first: `token ada@example.com`, `user 1`.
    public var requests: [String] {
        state.withLock { $0.requests }
    }

    /// Answers with a new token after the token latency, unless the credentials are wrong or the
    /// account disabled.
    public func fetchToken(_ credentials: Credentials) -> Response<AuthToken> {
        let account = accounts.first { $0.user.email.lowercased() == credentials.email.lowercased() }
        let result = state.withLock { state -> Result<AuthToken, any Error> in
            state.requests.append("token \(credentials.email)")
            if !state.plannedFailures.isEmpty { return .failure(state.plannedFailures.removeFirst()) }
            guard let account, account.password == credentials.password else {
                return .failure(AuthenticationError.wrongCredentials)
            }
            guard !account.isDisabled else { return .failure(AuthenticationError.accountDisabled) }
            state.issued += 1
            return .success(Self.signedToken(userID: account.user.id, serial: state.issued))
        }
        return answer(with: result, after: latency.token)
    }

    /// Answers with the token's user after the user latency; a token whose signature does not
    /// match, or whose account is gone or disabled, is HTTP 401.
    public func fetchUser(_ token: AuthToken) -> Response<AuthenticatedUser> {
        let user = Self.userID(in: token).flatMap { id in accounts.first { $0.user.id == id && !$0.isDisabled } }?.user
        let result = state.withLock { state -> Result<AuthenticatedUser, any Error> in
            state.requests.append("user \(user.map { String($0.id) } ?? "?")")
            if !state.plannedFailures.isEmpty { return .failure(state.plannedFailures.removeFirst()) }
            guard let user else { return .failure(AuthenticationError.server(status: 401)) }
            return .success(user)
        }
        return answer(with: result, after: latency.user)
    }

    /// `tk_<user id>_<serial>_<signature>`: the signature stands for the HMAC a real backend
    /// would compute with its secret key.
    static func signedToken(userID: Int, serial: Int) -> AuthToken {
        AuthToken(value: "tk_\(userID)_\(serial)_\(signature(userID: userID, serial: serial))")
    }

    /// The user a token was issued to, if its signature is right.
    static func userID(in token: AuthToken) -> Int? {
        let parts = token.value.split(separator: "_")
        guard parts.count == 4, parts[0] == "tk", let id = Int(parts[1]), let serial = Int(parts[2]) else { return nil }
        return parts[3] == signature(userID: id, serial: serial) ? id : nil
    }

    private static func signature(userID: Int, serial: Int) -> Substring {
        let mixed =
            (UInt64(truncatingIfNeeded: userID) &* 0x9E37_79B9_7F4A_7C15)
            ^ (UInt64(truncatingIfNeeded: serial) &* 0xC2B2_AE3D_27D4_EB4F)
        return Substring(String(mixed, radix: 16))
    }

    private func answer<Value: Sendable>(with result: Result<Value, any Error>, after delay: Duration) -> Response<
        Value
    > {
        let (response, resolver) = Response<Value>.pending()
        let reply = scheduler.schedule(after: delay) { resolver.resolve(with: result) }
        resolver.onCancel { reply.cancel() }
        return response
    }
}
