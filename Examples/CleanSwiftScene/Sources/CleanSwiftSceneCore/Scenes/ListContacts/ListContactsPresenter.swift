import ExampleSupport

/// What the interactor may ask of the "list contacts" presenter.
@MainActor
public protocol ListContactsPresentationLogic: AnyObject {
    /// Formats the address book, or the failure, for display.
    func presentFetchContacts(response: ListContacts.FetchContacts.Response)
    /// Formats the outcome of picking a row.
    func presentSelectContact(response: ListContacts.SelectContact.Response)
}

/// The "list contacts" presenter: turns contacts into strings, capitalising names and formatting
/// phone numbers, and errors into sentences.
@MainActor
public final class ListContactsPresenter: ListContactsPresentationLogic {
    /// Where view models go; weak, because the view controller owns the scene.
    public weak var viewController: (any ListContactsDisplayLogic)?

    /// Makes a presenter.
    public init() {}

    /// Shows each contact as `First Last` and a formatted number, or the failure.
    public func presentFetchContacts(response: ListContacts.FetchContacts.Response) {
        let viewModel: ListContacts.FetchContacts.ViewModel
        switch response.result {
        case .success(let contacts):
            viewModel = .init(
                displayedContacts: contacts.map { contact in
                    .init(
                        name: NameFormatter.displayName(contact.firstName, contact.lastName),
                        phone: PhoneNumberFormatter.displayNumber(contact.phone)
                    )
                })
        case .failure(let error):
            viewModel = .init(displayedContacts: [], errorMessage: "The contacts could not be loaded: \(error)")
        }
        viewController?.displayFetchContacts(viewModel: viewModel)
    }

    /// Says what was wrong with the row number, if anything.
    public func presentSelectContact(response: ListContacts.SelectContact.Response) {
        switch response.result {
        case .success:
            viewController?.displaySelectContact(viewModel: .init(isSelected: true))
        case .failure(.missingNumber):
            viewController?.displaySelectContact(
                viewModel: .init(isSelected: false, errorMessage: "Say which contact, such as: show 2"))
        case .failure(.notANumber(let typed)):
            viewController?.displaySelectContact(
                viewModel: .init(
                    isSelected: false, errorMessage: "\"\(InputEcho.display(typed))\" is not a row number, such as 2."))
        case .failure(.noSuchRow(let number, let rowCount)):
            let message =
                rowCount == 0
                ? "There is no contact \(number): the list is empty."
                : "There is no contact \(number): choose 1 to \(rowCount)."
            viewController?.displaySelectContact(viewModel: .init(isSelected: false, errorMessage: message))
        }
    }
}
