import ResponseKit

/// What the cities screen's actions do: each runs a use case and hands the answer to the presenter.
///
/// Each method returns the presenter's "shown" response, which finishes once the screen shows
/// the outcome.
@MainActor
public final class CitiesController {
    private let display: DisplayCities
    private let add: AddCity
    private let delete: DeleteCity
    private let presenter: CitiesPresenter

    /// Makes a controller.
    ///
    /// - Parameters:
    ///   - display: the display use case.
    ///   - add: the add use case.
    ///   - delete: the delete use case.
    ///   - presenter: the presenter of their answers.
    public init(display: DisplayCities, add: AddCity, delete: DeleteCity, presenter: CitiesPresenter) {
        self.display = display
        self.add = add
        self.delete = delete
        self.presenter = presenter
    }

    /// Shows the list.
    @discardableResult
    public func showCities() -> Response<Void> {
        presenter.presentCities(display.execute())
    }

    /// Adds a city, then shows the list.
    ///
    /// - Parameter name: the name as typed.
    @discardableResult
    public func addCity(named name: String) -> Response<Void> {
        presenter.presentAdded(add.execute(name: name))
    }

    /// Deletes a city, then shows the list.
    ///
    /// - Parameter name: the name as typed.
    @discardableResult
    public func deleteCity(named name: String) -> Response<Void> {
        presenter.presentDeleted(delete.execute(name: name))
    }
}
