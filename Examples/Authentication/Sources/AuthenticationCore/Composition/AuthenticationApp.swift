import ExampleSupport
import Foundation
import ResponseKit

/// The composition root of the `Authentication` executable: the decorated use case against the
/// fake backend (or, given a server's URL, ``HTTPAuthenticationAPI``), a token file, the view
/// model and its screen.
@MainActor
public final class AuthenticationApp {
    /// One sign-in to try.
    public struct Attempt: Sendable {
        /// The email, as typed.
        public let email: String
        /// The password, as typed.
        public let password: String
        /// A failure to plan on the backend first, to show how it is reported.
        public let plannedFailure: AuthenticationError?

        /// Makes an attempt.
        ///
        /// - Parameters:
        ///   - email: the email, as typed.
        ///   - password: the password, as typed.
        ///   - plannedFailure: a failure the backend gives the next request.
        public init(email: String, password: String, plannedFailure: AuthenticationError? = nil) {
            self.email = email
            self.password = password
            self.plannedFailure = plannedFailure
        }
    }

    /// The tour the executable runs without arguments: each kind of outcome once, success last.
    public static let tour = [
        Attempt(email: "ada@example", password: "secret"),
        Attempt(email: "ada@example.com", password: ""),
        Attempt(email: "ada@example.com", password: "guess"),
        Attempt(email: "charles@example.com", password: "engine"),
        Attempt(email: "grace@example.com", password: "cobol", plannedFailure: .server(status: 503)),
        Attempt(email: "ada@example.com", password: "secret"),
    ]

    /// The in-process backend, for tests to plan failures on; `nil` when the app talks to a server.
    public let backend: FakeAuthenticationBackend?
    /// The view model.
    public let viewModel: AuthenticationViewModel
    private let screen: AuthenticationScreen
    private let tokenStore: FileTokenStore
    private let output: ConsoleOutput

    /// Wires the app.
    ///
    /// - Parameters:
    ///   - tokenFile: where the token is kept.
    ///   - output: where the screen and the audit lines print.
    ///   - authServer: the backend's URL (`--auth-server`), spoken to over HTTP; `nil` for the
    ///     in-process fake.
    ///   - latency: the fake backend's latency.
    ///   - scheduler: the source of time for the backend and the timeout.
    public init(
        tokenFile: String,
        output: ConsoleOutput,
        authServer: URL? = nil,
        latency: FakeAuthenticationBackend.Latency = .init(),
        scheduler: any ResponseScheduler = DispatchScheduler()
    ) {
        let api = AuthenticationComposition.makeAPI(server: authServer, latency: latency, scheduler: scheduler)
        backend = api as? FakeAuthenticationBackend
        tokenStore = FileTokenStore(path: tokenFile)
        let useCase = AuthenticationComposition.makeUseCase(api: api, tokenStore: tokenStore, scheduler: scheduler) {
            user in
            output.writeLine("  [audit] \(user.name) (id \(user.id)) signed in")  // from the intercepting decorator
        }
        viewModel = AuthenticationViewModel(useCase: useCase)
        screen = AuthenticationScreen(viewModel: viewModel, output: output)
        self.output = output
    }

    /// Runs one attempt and prints the outcome.
    ///
    /// - Parameter attempt: what to try.
    /// - Returns: a response that succeeds once the outcome is printed.
    public func run(_ attempt: Attempt) -> Response<Void> {
        if let failure = attempt.plannedFailure, let backend {  // a real server answers as it will
            output.writeLine("(the backend will answer the next request with: \(failure))")
            backend.failNextRequests(with: failure)
        }
        return screen.signIn(email: attempt.email, password: attempt.password)
    }

    /// Where the token is, and who may read it, checked on the file:
    /// `token file /path (rw-------, readable only by you)`.
    ///
    /// The file is created 0600, but a person or a backup tool may have changed its mode since,
    /// so the claim is read from the file's mode and owner, never assumed.
    ///
    /// - Returns: the path, the permissions as `ls -l` shows them, and who may read the token.
    public func describeTokenFile() -> String {
        var info = stat()
        guard stat(tokenStore.path, &info) == 0 else { return "no token file at \(tokenStore.path)" }
        let mode = Int(info.st_mode) & 0o777
        let letters = (0..<9).map { bit in mode & (0o400 >> bit) != 0 ? Array("rwx")[bit % 3] : "-" }
        let readers = Self.whoMayRead(mode: mode, ownedByYou: info.st_uid == geteuid())
        return "token file \(tokenStore.path) (\(String(letters)), \(readers))"
    }

    /// Who may read a file with permissions `mode`, in words.
    ///
    /// - Parameters:
    ///   - mode: the permission bits, such as `0o600`.
    ///   - ownedByYou: whether the file belongs to the user running the app.
    /// - Returns: `readable only by you` for a private file; otherwise a warning saying who else
    ///   may read it.
    nonisolated static func whoMayRead(mode: Int, ownedByYou: Bool) -> String {
        if mode & 0o004 != 0 { return "WARNING: readable by every user of this machine; chmod 600 it" }
        if mode & 0o040 != 0 { return "WARNING: readable by the file's group; chmod 600 it" }
        if !ownedByYou { return "WARNING: owned by another user, who may read it" }
        if mode & 0o400 == 0 { return "not readable, not even by you" }
        return "readable only by you"
    }
}
