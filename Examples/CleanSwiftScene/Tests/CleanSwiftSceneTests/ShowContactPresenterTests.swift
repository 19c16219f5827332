import CleanSwiftSceneCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
@MainActor
struct ShowContactPresenterTests {
    let display = ShowContactDisplaySpy()
    let presenter = ShowContactPresenter()

    init() {
        presenter.viewController = display
    }

    @Test func showsTheCapitalisedName_itsInitials_andTheFormattedNumber() {
        presenter.presentContact(
            response: .init(contact: Contact(id: 2, firstName: "jean-luc", lastName: "picard", phone: "12125550111")))

        #expect(display.viewModels == [.init(name: "Jean-Luc Picard", phone: "+1 (212) 555-0111", initials: "JP")])
    }

    @Test func withoutAContact_saysSo() {
        presenter.presentContact(response: .init(contact: nil))

        #expect(display.viewModels == [.init(name: "Unknown contact", phone: "no phone number", initials: "?")])
    }
}
