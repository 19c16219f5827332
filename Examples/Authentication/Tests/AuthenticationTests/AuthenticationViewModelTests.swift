import AuthenticationCore
import ExampleSupport
import ResponseKit
import ResponseKitTesting
import Testing

/// The view model, on a use case whose answers a test finishes by hand and a ManualExecutor delivers.
@MainActor
struct AuthenticationViewModelTests {
    let manual = ManualExecutor()
    let answers = Locked([Resolver<AuthenticatedUser>]())
    let viewModel: AuthenticationViewModel

    init() {
        let manual = manual
        let answers = answers
        viewModel = AuthenticationViewModel(
            useCase: AuthenticationUseCaseStub { _ in
                let (response, resolver) = Response<AuthenticatedUser>.pending(on: manual.executor)
                answers.withLock { $0.append(resolver) }
                return response
            })
    }

    func answer(with result: Result<AuthenticatedUser, any Error>) {
        answers.withLock { $0.removeFirst() }.resolve(with: result)
        manual.runAll()
    }

    /// Ends a test that looked at a sign-in in flight: a request never answered would keep the
    /// view model (its callbacks') and the stub's list of answers alive in a cycle.
    func answerEverySignInLeft() {
        while answers.withLock({ !$0.isEmpty }) { answer(with: .failure(CancellationError())) }
    }

    @Test func whileSigningIn_saysSo_andShowsNoUserYet() {
        viewModel.signIn(email: "ada@example.com", password: "secret")

        #expect(viewModel.isSigningIn)
        #expect(viewModel.message == "Signing in…")
        #expect(viewModel.user == nil)
        #expect(viewModel.errorMessage == nil)
        answerEverySignInLeft()
    }

    @Test func aSuccess_showsTheUser_andWelcomesThem() {
        let shown = viewModel.signIn(email: "ada@example.com", password: "secret")

        answer(with: .success(.ada))

        #expect(viewModel.user == "Ada Lovelace")
        #expect(viewModel.message == "Welcome, Ada Lovelace.")
        #expect(viewModel.errorMessage == nil)
        #expect(!viewModel.isSigningIn)
        #expect(shown.isSuccessful)
    }

    @Test func aFailure_showsTheErrorMessage_andNoUser() {
        let shown = viewModel.signIn(email: "ada@example.com", password: "guess")

        answer(with: .failure(AuthenticationError.wrongCredentials))

        #expect(viewModel.errorMessage == "Wrong email or password.")
        #expect(viewModel.message == nil)
        #expect(viewModel.user == nil)
        #expect(!viewModel.isSigningIn)
        #expect(shown.isSuccessful)
    }

    @Test func anUnexpectedError_isShownAsItIs() {
        struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }
        viewModel.signIn(email: "ada@example.com", password: "secret")

        answer(with: .failure(Offline()))

        #expect(viewModel.errorMessage == "Something went wrong: offline")
    }

    @Test func aNewAttempt_clearsTheLastError() {
        viewModel.signIn(email: "ada@example.com", password: "guess")
        answer(with: .failure(AuthenticationError.wrongCredentials))

        viewModel.signIn(email: "ada@example.com", password: "secret")

        #expect(viewModel.errorMessage == nil)
        #expect(viewModel.message == "Signing in…")
        answerEverySignInLeft()
    }

    @Test func nothingChangesBeforeTheAnswerIsDelivered() {
        viewModel.signIn(email: "ada@example.com", password: "secret")
        answers.withLock { $0.removeFirst() }.succeed(.ada)

        #expect(viewModel.user == nil)
        manual.runAll()
        #expect(viewModel.user == "Ada Lovelace")
    }
}
