/// The cities screen, as the presenter sees it: a GUI list, or ``CitiesConsoleView``.
@MainActor
public protocol CitiesView: AnyObject {
    /// Shows the list, replacing what was shown.
    ///
    /// - Parameter viewModel: what to show.
    func display(_ viewModel: CitiesViewModel)

    /// Shows why the last request failed; the list shown stays as it was.
    ///
    /// - Parameter message: what went wrong and what to do.
    func displayError(_ message: String)
}
