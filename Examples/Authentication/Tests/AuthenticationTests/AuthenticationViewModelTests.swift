import AuthenticationCore
import ResponseKit
import ResponseKitTesting
import Testing

/// The view model, on a use case whose sign-ins a test answers by hand and a ManualExecutor delivers.
@Suite(.responseChecks)
@MainActor
struct AuthenticationViewModelTests {
    let manual = ManualExecutor()
    let signIns: StubbedCalls<Credentials, AuthenticatedUser>
    let viewModel: AuthenticationViewModel

    init() {
        signIns = StubbedCalls(on: manual.executor)
        viewModel = AuthenticationViewModel(useCase: AuthenticationUseCaseStub(answer: signIns.call))
    }

    @Test func whileSigningIn_saysSo_andShowsNoUserYet() {
        viewModel.signIn(email: "ada@example.com", password: "secret")

        #expect(signIns.calls.map(\.argument) == [.ada])
        #expect(viewModel.isSigningIn)
        #expect(viewModel.message == "Signing in…")
        #expect(viewModel.user == nil)
        #expect(viewModel.errorMessage == nil)
        signIns.calls[0].cancel()  // leaves no sign-in in flight
        manual.runAll()
    }

    @Test func aSuccess_showsTheUser_andWelcomesThem() {
        let shown = viewModel.signIn(email: "ada@example.com", password: "secret")

        signIns.calls[0].succeed(.ada)
        manual.runAll()

        #expect(viewModel.user == "Ada Lovelace")
        #expect(viewModel.message == "Welcome, Ada Lovelace.")
        #expect(viewModel.errorMessage == nil)
        #expect(!viewModel.isSigningIn)
        #expect(shown.isSuccessful)
    }

    @Test func aFailure_showsTheErrorMessage_andNoUser() {
        let shown = viewModel.signIn(email: "ada@example.com", password: "guess")

        signIns.calls[0].fail(AuthenticationError.wrongCredentials)
        manual.runAll()

        #expect(viewModel.errorMessage == "Wrong email or password.")
        #expect(viewModel.message == nil)
        #expect(viewModel.user == nil)
        #expect(!viewModel.isSigningIn)
        #expect(shown.isSuccessful)
    }

    @Test func anUnexpectedError_isShownAsItIs() {
        struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }
        viewModel.signIn(email: "ada@example.com", password: "secret")

        signIns.calls[0].fail(Offline())
        manual.runAll()

        #expect(viewModel.errorMessage == "Something went wrong: offline")
    }

    @Test func aNewAttempt_clearsTheLastError() {
        viewModel.signIn(email: "ada@example.com", password: "guess")
        signIns.calls[0].fail(AuthenticationError.wrongCredentials)
        manual.runAll()

        viewModel.signIn(email: "ada@example.com", password: "secret")

        #expect(viewModel.errorMessage == nil)
        #expect(viewModel.message == "Signing in…")
        signIns.calls[1].cancel()  // leaves no sign-in in flight
        manual.runAll()
    }

    @Test func nothingChangesBeforeTheAnswerIsDelivered() {
        viewModel.signIn(email: "ada@example.com", password: "secret")
        signIns.calls[0].succeed(.ada)

        #expect(viewModel.user == nil)
        manual.runAll()
        #expect(viewModel.user == "Ada Lovelace")
    }
}
