import SignInCore

/// Records every view model the presenter displays.
@MainActor
final class AuthViewSpy: AuthView {
    private(set) var displayed: [AuthViewModel] = []

    func display(_ viewModel: AuthViewModel) {
        displayed.append(viewModel)
    }
}
