import CitiesCore

/// Records what the presenter shows.
@MainActor
final class CitiesViewSpy: CitiesView {
    enum Shown: Equatable {
        case list(CitiesViewModel)
        case error(String)
    }

    private(set) var shown: [Shown] = []

    func display(_ viewModel: CitiesViewModel) {
        shown.append(.list(viewModel))
    }

    func displayError(_ message: String) {
        shown.append(.error(message))
    }
}
