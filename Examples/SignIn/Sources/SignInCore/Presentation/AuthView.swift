/// The auth screen, as the presenter sees it: a GUI, or ``AuthConsoleView`` at the command line.
@MainActor
public protocol AuthView: AnyObject {
    /// Shows `viewModel`, replacing what was shown.
    ///
    /// - Parameter viewModel: what to show.
    func display(_ viewModel: AuthViewModel)
}
