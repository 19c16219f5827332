import ResponseKit

/// What the view controller may ask of the "list contacts" scene.
@MainActor
public protocol ListContactsBusinessLogic: AnyObject {
    /// Fetches the address book, then has it presented.
    func fetchContacts(request: ListContacts.FetchContacts.Request)
    /// Picks a row, then has the outcome presented.
    func selectContact(request: ListContacts.SelectContact.Request)
}

/// What the scene keeps for the router to pass on.
@MainActor
public protocol ListContactsDataStore: AnyObject {
    /// The contacts last fetched, in the order shown.
    var contacts: [Contact] { get }
    /// The contact last picked.
    var selectedContact: Contact? { get }
}

/// The "list contacts" interactor: the scene's business logic.
///
/// The callback style, as VIP is a one-way loop: the interactor asks the worker, and its
/// main-actor callback hands the outcome to the presenter; nothing is returned to the view
/// controller.
@MainActor
public final class ListContactsInteractor: ListContactsBusinessLogic, ListContactsDataStore {
    /// Where outcomes go.
    public var presenter: (any ListContactsPresentationLogic)?
    private let worker: ContactsWorker
    /// The contacts last fetched, in the order shown.
    public private(set) var contacts: [Contact] = []
    /// The contact last picked.
    public private(set) var selectedContact: Contact?

    /// Makes an interactor.
    ///
    /// - Parameter worker: fetches the contacts.
    public init(worker: ContactsWorker) {
        self.worker = worker
    }

    /// Fetches the contacts; a failure is presented too, and keeps the last list.
    public func fetchContacts(request: ListContacts.FetchContacts.Request) {
        worker.fetchContacts().mainActor
            .onCompletion { contacts in
                self.contacts = contacts
                self.presenter?.presentFetchContacts(response: .init(result: .success(contacts)))
            }
            .onFailure { error in
                self.presenter?.presentFetchContacts(response: .init(result: .failure(error)))
            }
    }

    /// Picks the contact on the typed row (counting from 1) of the list last fetched.
    public func selectContact(request: ListContacts.SelectContact.Request) {
        let typed = request.typedNumber.trimmingWhitespace()
        let result: Result<Contact, ListContacts.SelectContact.SelectionError>
        if typed.isEmpty {
            result = .failure(.missingNumber)
        } else if let number = Int(typed) {
            result =
                contacts.indices.contains(number - 1)
                ? .success(contacts[number - 1])
                : .failure(.noSuchRow(number, rowCount: contacts.count))
        } else {
            result = .failure(.notANumber(typed))
        }
        if case .success(let contact) = result { selectedContact = contact }
        presenter?.presentSelectContact(response: .init(result: result))
    }
}
