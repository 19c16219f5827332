import ResponseKit

/// The auth module, wired: interactor, presenter and controller around a worker and a view.
///
/// The composition root makes one with ``init(worker:view:)`` and keeps it; nothing in the module
/// knows how the others were made, so the worker can be a fake, a network client, or an adapter
/// to another use case (as in the `ResponseKitDemo` app).
@MainActor
public final class AuthModule {
    /// The use cases.
    public let interactor: AuthInteractor
    /// The presenter, holding the last known state.
    public let presenter: AuthPresenter
    /// What the screen's buttons call.
    public let controller: AuthController

    /// Wires the module.
    ///
    /// - Parameters:
    ///   - worker: the authentication service.
    ///   - view: the screen; held weakly by the presenter, so keep it alive.
    public init(worker: any AuthenticationWorker, view: any AuthView) {
        interactor = AuthInteractor(worker: worker)
        presenter = AuthPresenter()
        presenter.view = view
        controller = AuthController(interactor: interactor, presenter: presenter)
    }
}
