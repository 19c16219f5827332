/// The "show contact" router: it only exposes the data store, for the scene that opens it.
@MainActor
public final class ShowContactRouter {
    /// The scene's data store: its interactor.
    public weak var dataStore: (any ShowContactDataStore)?

    /// Makes a router.
    public init() {}
}
