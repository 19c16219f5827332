import ResponseKit

/// Turns the outcome of an activation into what the screen shows.
///
/// A pure function of the result: the blocking-style CLI waits for the result first, so there is
/// no callback and no state to keep here.
public nonisolated enum ActivationPresenter {
    /// The view model for `result`.
    ///
    /// - Parameter result: the outcome of ``ActivateRegister/execute(_:)``.
    /// - Returns: what the screen shows.
    public static func viewModel(for result: Result<ActivatedRegister, any Error>) -> ActivationViewModel {
        switch result {
        case .success(let register):
            ActivationViewModel(
                isActivated: true,
                title: "Register \(register.registerNumber) of \(register.storeName) is active.",
                detail: "Licence key: \(register.licenceKey)"
            )
        case .failure(let error as RegisterActivationError):
            ActivationViewModel(isActivated: false, title: "Activation failed.", detail: error.description)
        case .failure(is CancellationError):
            ActivationViewModel(isActivated: false, title: "Activation cancelled.", detail: "Nothing was changed.")
        case .failure(let error):
            ActivationViewModel(isActivated: false, title: "Activation failed.", detail: "Unexpected error: \(error)")
        }
    }
}
