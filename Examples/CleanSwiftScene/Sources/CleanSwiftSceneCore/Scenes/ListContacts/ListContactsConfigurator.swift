import ExampleSupport

/// Wires the "list contacts" scene: view controller, interactor, presenter and router.
@MainActor
public enum ListContactsConfigurator {
    /// Makes the scene.
    ///
    /// - Parameters:
    ///   - worker: fetches the contacts.
    ///   - navigator: the stack the router pushes scenes on.
    ///   - output: where the scenes print.
    /// - Returns: the scene's view controller, which holds the rest.
    public static func makeScene(worker: ContactsWorker, navigator: SceneNavigator, output: ConsoleOutput)
        -> ListContactsViewController
    {
        let viewController = ListContactsViewController(output: output)
        let interactor = ListContactsInteractor(worker: worker)
        let presenter = ListContactsPresenter()
        let router = ListContactsRouter(navigator: navigator, output: output)
        viewController.interactor = interactor
        viewController.router = router
        interactor.presenter = presenter
        presenter.viewController = viewController
        router.dataStore = interactor
        return viewController
    }
}
