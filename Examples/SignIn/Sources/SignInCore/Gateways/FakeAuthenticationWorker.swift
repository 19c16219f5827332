import ExampleSupport
import ResponseKit

/// An authentication service in memory, with a delay on every answer.
///
/// Accounts are a dictionary of usernames and passwords; the session is this object's state.
/// Answers come after `latency`, timed by a ``ResponseKit/ResponseScheduler``: real time in the
/// example, `ManualScheduler` in tests. ``isReachable`` lets a test or the example pretend the
/// service is down.
public nonisolated final class FakeAuthenticationWorker: AuthenticationWorker {
    private struct State {
        var signedIn: User?
        var isReachable = true
    }

    private let accounts: [String: String]
    private let latency: Duration
    private let scheduler: any ResponseScheduler
    private let state = Locked(State())

    /// Makes a worker with nobody signed in.
    ///
    /// - Parameters:
    ///   - accounts: usernames and their passwords; `ada` / `secret` and `grace` / `cobol` by default.
    ///   - latency: how long each answer takes.
    ///   - scheduler: the source of time; `ManualScheduler` in tests.
    public init(
        accounts: [String: String] = ["ada": "secret", "grace": "cobol"],
        latency: Duration = .milliseconds(300),
        scheduler: any ResponseScheduler = DispatchScheduler()
    ) {
        self.accounts = accounts
        self.latency = latency
        self.scheduler = scheduler
    }

    /// Whether the service answers; when `false`, every call fails with
    /// ``SignInError/serviceUnavailable``.
    public var isReachable: Bool {
        get { state.withLock { $0.isReachable } }
        set { state.withLock { $0.isReachable = newValue } }
    }

    /// Answers with the signed-in user after the latency.
    public func currentUser() -> Response<User?> {
        answer { state in state.signedIn }
    }

    /// Signs in after the latency when the password matches.
    public func signIn(username: String, password: String) -> Response<User> {
        answer { [accounts] state in
            guard let expected = accounts[username], expected == password else { throw SignInError.wrongCredentials }
            let user = User(name: username)
            state.signedIn = user
            return user
        }
    }

    /// Signs out after the latency.
    public func signOut() -> Response<Void> {
        answer { state in state.signedIn = nil }
    }

    /// Runs `body` on the state once the latency has passed, unless the response was cancelled.
    private func answer<Value: Sendable>(_ body: @escaping @Sendable (inout State) throws -> Value) -> Response<Value> {
        let (response, resolver) = Response<Value>.pending()
        let job = scheduler.schedule(after: latency) { [state] in
            let result = state.withLock { state in
                Result { () throws -> Value in
                    guard state.isReachable else { throw SignInError.serviceUnavailable }
                    return try body(&state)
                }
            }
            resolver.resolve(with: result)
        }
        resolver.onCancel { job.cancel() }
        return response
    }
}
