/// What the interactor may ask of the "show contact" presenter.
@MainActor
public protocol ShowContactPresentationLogic: AnyObject {
    /// Formats the contact for display.
    func presentContact(response: ShowContact.Display.Response)
}

/// The "show contact" presenter: capitalised name, initials, formatted phone number.
@MainActor
public final class ShowContactPresenter: ShowContactPresentationLogic {
    /// Where view models go.
    public weak var viewController: (any ShowContactDisplayLogic)?

    /// Makes a presenter.
    public init() {}

    /// Formats the contact; with none, says so rather than showing an empty card.
    public func presentContact(response: ShowContact.Display.Response) {
        guard let contact = response.contact else {
            viewController?.displayContact(
                viewModel: .init(name: "Unknown contact", phone: "no phone number", initials: "?"))
            return
        }
        let name = NameFormatter.displayName(contact.firstName, contact.lastName)
        let initials = name.split(separator: " ").compactMap(\.first).map(String.init).joined()
        viewController?.displayContact(
            viewModel: .init(
                name: name,
                phone: PhoneNumberFormatter.displayNumber(contact.phone),
                initials: initials
            ))
    }
}
