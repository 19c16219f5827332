import ExampleSupport
import ResponseKit
import ResponseKitTesting
import SignInCore
import Testing

/// The composition root and its commands, end to end with the fake worker on a manual clock.
///
/// Awaiting a command's response suspends the main actor, so the presenter's main-queue
/// callbacks run; it returns once the outcome is printed.
@Suite(.responseChecks)
@MainActor
struct SignInAppTests {
    let scheduler = ManualScheduler()
    let printed = Recorder<String>()
    let app: SignInApp

    init() {
        let worker = FakeAuthenticationWorker(
            accounts: ["ada": "secret"], latency: .milliseconds(300), scheduler: scheduler)
        app = SignInApp(
            worker: worker, input: .scripted([]), output: ConsoleOutput { [printed] in printed.record($0) },
            isInteractive: false)
    }

    /// Runs `line`, lets the worker answer, and returns what was printed.
    func run(_ line: String) async throws -> [String] {
        let before = printed.count
        let step = app.handle(line)
        scheduler.advance(by: .milliseconds(300))
        _ = try await step.get()
        return Array(printed.values.dropFirst(before))
    }

    @Test func signingIn_printsTheUser_andTheSignOutButton() async throws {
        #expect(try await run("signin ada secret") == ["Signed in as ada   [sign out]\n"])
    }

    @Test func aWrongPassword_printsTheError_andKeepsTheSignInButton() async throws {
        _ = try await run("status")

        #expect(
            try await run("signin ada guess") == ["error: Wrong username or password.\n", "Signed out   [sign in]\n"])
    }

    @Test func signinWithoutAPassword_saysSo() async throws {
        #expect(
            try await run("signin ada") == [
                "error: Enter a password.\n", "Not sure whether you are signed in   [retry] [sign in]\n",
            ])
    }

    @Test func signoutWhenSignedOut_isRefused_namingTheButtonsShown() async throws {
        _ = try await run("status")

        #expect(try await run("signout") == ["'sign out' is not available now (Signed out); available: [sign in]\n"])
    }

    @Test func signinWhenSignedIn_isRefused() async throws {
        _ = try await run("signin ada secret")

        #expect(
            try await run("signin grace cobol") == [
                "'sign in' is not available now (Signed in as ada); available: [sign out]\n"
            ])
        #expect(app.module.presenter.state == .signedIn(User(name: "ada")))
    }

    @Test func anUnknownCommand_isNamed_andChangesNothing() async throws {
        _ = try await run("signin ada secret")

        #expect(try await run("dance") == ["Unknown command 'dance'. Type 'help' for the commands.\n"])
        #expect(app.module.presenter.state == .signedIn(User(name: "ada")))
    }

    @Test func quit_endsTheLoop() async throws {
        #expect(try await app.handle("quit").get() == .quit)
    }
}
