/// What the view controller may ask of the "show contact" scene.
@MainActor
public protocol ShowContactBusinessLogic: AnyObject {
    /// Has the contact handed to the scene presented.
    func displayContact(request: ShowContact.Display.Request)
}

/// What the previous scene's router fills in.
@MainActor
public protocol ShowContactDataStore: AnyObject {
    /// The contact to show.
    var contact: Contact? { get set }
}

/// The "show contact" interactor: it holds the contact it was given; there is nothing to fetch.
@MainActor
public final class ShowContactInteractor: ShowContactBusinessLogic, ShowContactDataStore {
    /// Where outcomes go.
    public var presenter: (any ShowContactPresentationLogic)?
    /// The contact to show, set by the router that opened the scene.
    public var contact: Contact?

    /// Makes an interactor with no contact yet.
    public init() {}

    /// Hands the contact to the presenter.
    public func displayContact(request: ShowContact.Display.Request) {
        presenter?.presentContact(response: .init(contact: contact))
    }
}
