import ExampleSupport
import ResponseKit

/// Where the "list contacts" scene can go.
@MainActor
public protocol ListContactsRoutingLogic: AnyObject {
    /// Opens the selected contact in a "show contact" scene.
    ///
    /// - Returns: a response that finishes once the new scene has displayed the contact.
    func routeToShowContact() -> Response<Void>
}

/// What the router hands over between scenes.
@MainActor
public protocol ListContactsDataPassing: AnyObject {
    /// The scene's data store.
    var dataStore: (any ListContactsDataStore)? { get }
}

/// The "list contacts" router: builds the next scene, passes it the data it needs, and pushes it.
@MainActor
public final class ListContactsRouter: ListContactsRoutingLogic, ListContactsDataPassing {
    /// The scene's data store: its interactor.
    public weak var dataStore: (any ListContactsDataStore)?
    /// Weak, as a view controller's `navigationController` is: the navigator holds its scenes,
    /// each scene its router, so a strong reference back would keep the whole stack alive.
    private weak var navigator: SceneNavigator?
    private let output: ConsoleOutput

    /// Makes a router.
    ///
    /// - Parameters:
    ///   - navigator: the stack to push scenes on.
    ///   - output: where new scenes print.
    public init(navigator: SceneNavigator, output: ConsoleOutput) {
        self.navigator = navigator
        self.output = output
    }

    /// Builds a "show contact" scene for the selected contact and pushes it.
    public func routeToShowContact() -> Response<Void> {
        let destination = ShowContactConfigurator.makeScene(output: output)
        if let source = dataStore, let target = destination.router?.dataStore {
            passDataToShowContact(source: source, destination: target)
        }
        guard let navigator else { return .succeeded((), on: .immediate) }  // the app is gone: nothing to show
        return navigator.push(destination)
    }

    /// Hands the selected contact to the "show contact" scene's data store.
    ///
    /// - Parameters:
    ///   - source: this scene's data store.
    ///   - destination: the next scene's data store.
    public func passDataToShowContact(source: any ListContactsDataStore, destination: any ShowContactDataStore) {
        destination.contact = source.selectedContact
    }
}
