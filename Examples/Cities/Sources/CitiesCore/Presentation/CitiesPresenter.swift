import ExampleSupport
import ResponseKit

/// Turns the answers of the cities use cases into what the ``CitiesView`` shows.
///
/// The callback style: each `present` method registers main-actor callbacks on the response and
/// returns at once; the callbacks update the view on the main queue. Every failure is shown
/// through ``CitiesView/displayError(_:)``, never dropped.
@MainActor
public final class CitiesPresenter {
    /// The screen; weak, because the screen owns what it shows.
    public weak var view: (any CitiesView)?

    /// Makes a presenter.
    public init() {}

    /// Shows the list once `response` is done.
    ///
    /// - Parameter response: an answer of ``DisplayCities``.
    /// - Returns: a response that succeeds once the view is updated, whatever the outcome.
    @discardableResult
    public func presentCities(_ response: Response<[City]>) -> Response<Void> {
        present(response) { cities in Self.viewModel(for: cities) }
    }

    /// Shows the list and `Added <city>.` once `response` is done.
    ///
    /// - Parameter response: an answer of ``AddCity``.
    /// - Returns: a response that succeeds once the view is updated, whatever the outcome.
    @discardableResult
    public func presentAdded(_ response: Response<CitiesChange>) -> Response<Void> {
        present(response) { change in
            Self.viewModel(for: change.cities, message: "Added \(InputEcho.display(change.city.name)).")
        }
    }

    /// Shows the list and `Deleted <city>.` once `response` is done.
    ///
    /// - Parameter response: an answer of ``DeleteCity``.
    /// - Returns: a response that succeeds once the view is updated, whatever the outcome.
    @discardableResult
    public func presentDeleted(_ response: Response<CitiesChange>) -> Response<Void> {
        present(response) { change in
            Self.viewModel(for: change.cities, message: "Deleted \(InputEcho.display(change.city.name)).")
        }
    }

    /// The view model for `cities`.
    ///
    /// - Parameters:
    ///   - cities: the list.
    ///   - message: what the last change did.
    /// - Returns: the headline and numbered rows.
    public nonisolated static func viewModel(for cities: [City], message: String? = nil) -> CitiesViewModel {
        guard !cities.isEmpty else {
            return CitiesViewModel(title: "No cities yet: add one, such as: add Paris", rows: [], message: message)
        }
        let rows = cities.enumerated().map { index, city in "\(index + 1). \(InputEcho.display(city.name))" }
        return CitiesViewModel(title: "Your cities (\(cities.count))", rows: rows, message: message)
    }

    /// Words for `error`: the domain's and the gateway's errors already say what to do.
    nonisolated static func message(for error: any Error) -> String {
        switch error {
        case let error as CitiesError: error.description
        case let error as CitiesFileError: error.description
        case is CancellationError: "The request was cancelled; nothing was changed."
        default: "Something went wrong: \(error)"
        }
    }

    private func present<Value>(_ response: Response<Value>, _ makeViewModel: @escaping (Value) -> CitiesViewModel)
        -> Response<Void>
    {
        let (shown, resolver) = Response<Void>.pending(on: .immediate)
        response
            .mainActor.onCompletion { value in
                self.view?.display(makeViewModel(value))
                resolver.succeed()
            }
            .onFailure { error in
                self.view?.displayError(Self.message(for: error))
                resolver.succeed()
            }
        return shown
    }
}
