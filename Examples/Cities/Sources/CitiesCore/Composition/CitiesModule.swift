/// The cities module, wired: use cases, presenter and controller around a gateway and a view.
///
/// The composition root picks the gateway: ``FileCitiesGateway`` in the apps,
/// ``InMemoryCitiesGateway`` in tests.
@MainActor
public final class CitiesModule {
    /// The presenter.
    public let presenter: CitiesPresenter
    /// What the screen's actions call.
    public let controller: CitiesController

    /// Wires the module.
    ///
    /// - Parameters:
    ///   - gateway: where the list is kept.
    ///   - view: the screen; held weakly by the presenter, so keep it alive.
    public init(gateway: any CitiesGateway, view: any CitiesView) {
        presenter = CitiesPresenter()
        presenter.view = view
        controller = CitiesController(
            display: DisplayCities(gateway: gateway),
            add: AddCity(gateway: gateway),
            delete: DeleteCity(gateway: gateway),
            presenter: presenter
        )
    }
}
