import ResponseKit
import ResponseKitTesting
import SignInCore
import Testing

/// The presenter, fed responses a test finishes by hand and delivered by a ManualExecutor.
@Suite(.responseChecks)
@MainActor
struct AuthPresenterTests {
    let manual = ManualExecutor()
    let view = AuthViewSpy()
    let presenter = AuthPresenter()

    init() {
        presenter.view = view
    }

    /// Presents a pending response, finishes it with `result`, and delivers the callbacks.
    @discardableResult
    func present(_ result: Result<AuthState, any Error>) -> Response<Void> {
        let (response, resolver) = Response<AuthState>.pending(on: manual.executor)
        let shown = presenter.present(response)
        resolver.resolve(with: result)
        manual.runAll()
        return shown
    }

    // MARK: - States

    @Test func signedIn_showsTheUser_andOnlyTheSignOutButton() {
        present(.success(.signedIn(User(name: "ada"))))

        #expect(view.displayed == [AuthViewModel(status: "Signed in as ada", buttons: [.signOut])])
    }

    @Test func signedOut_showsOnlyTheSignInButton() {
        present(.success(.signedOut))

        #expect(view.displayed == [AuthViewModel(status: "Signed out", buttons: [.signIn])])
    }

    @Test func unknown_offersToRetry_orToSignIn() {
        present(.success(.unknown))

        #expect(
            view.displayed == [AuthViewModel(status: "Not sure whether you are signed in", buttons: [.retry, .signIn])])
    }

    // MARK: - Errors

    @Test func anError_isShown_withTheButtonsOfTheStateTheAppIsStillIn() {
        present(.success(.signedIn(User(name: "ada"))))

        present(.failure(SignInError.serviceUnavailable))

        #expect(
            view.displayed.last
                == AuthViewModel(
                    status: "Signed in as ada",
                    buttons: [.signOut],
                    errorMessage: "The sign-in service cannot be reached: try again later."
                ))
        #expect(presenter.state == .signedIn(User(name: "ada")))
    }

    @Test func anErrorBeforeAnyAnswer_leavesTheStateUnknown() {
        present(.failure(SignInError.wrongCredentials))

        #expect(
            view.displayed == [
                AuthViewModel(
                    status: "Not sure whether you are signed in",
                    buttons: [.retry, .signIn],
                    errorMessage: "Wrong username or password."
                )
            ])
    }

    @Test func anErrorOfAnotherKind_isShownAsItIs() {
        struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }

        present(.failure(Offline()))

        #expect(view.displayed.last?.errorMessage == "Something went wrong: offline")
    }

    @Test func theNextSuccess_clearsTheError() {
        present(.failure(SignInError.wrongCredentials))

        present(.success(.signedIn(User(name: "ada"))))

        #expect(view.displayed.last?.errorMessage == nil)
    }

    // MARK: - Timing

    @Test func nothingIsShownBeforeTheAnswerIsDelivered_andShownFinishesAfterTheView() {
        let (response, resolver) = Response<AuthState>.pending(on: manual.executor)
        let shown = presenter.present(response)

        resolver.succeed(.signedOut)
        #expect(view.displayed.isEmpty)
        #expect(!shown.isDone)

        manual.runAll()
        #expect(view.displayed.count == 1)
        #expect(shown.isSuccessful)
    }

    @Test func shownFinishes_evenWhenTheRequestFailed() {
        let shown = present(.failure(SignInError.wrongCredentials))

        #expect(shown.isSuccessful)
    }
}
