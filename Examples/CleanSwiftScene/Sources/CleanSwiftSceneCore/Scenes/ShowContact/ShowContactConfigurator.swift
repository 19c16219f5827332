import ExampleSupport

/// Wires the "show contact" scene.
@MainActor
public enum ShowContactConfigurator {
    /// Makes the scene, with no contact yet: the opening router passes one in.
    ///
    /// - Parameter output: where the scene prints.
    /// - Returns: the scene's view controller, which holds the rest.
    public static func makeScene(output: ConsoleOutput) -> ShowContactViewController {
        let viewController = ShowContactViewController(output: output)
        let interactor = ShowContactInteractor()
        let presenter = ShowContactPresenter()
        let router = ShowContactRouter()
        viewController.interactor = interactor
        viewController.router = router
        interactor.presenter = presenter
        presenter.viewController = viewController
        router.dataStore = interactor
        return viewController
    }
}
