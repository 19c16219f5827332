import CleanSwiftSceneCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
@MainActor
struct ListContactsPresenterTests {
    let display = ListContactsDisplaySpy()
    let presenter = ListContactsPresenter()

    init() {
        presenter.viewController = display
    }

    @Test func contacts_areShownWithCapitalisedNames_andFormattedNumbers() {
        presenter.presentFetchContacts(
            response: .init(
                result: .success([
                    Contact(id: 1, firstName: "jean-luc", lastName: "PICARD", phone: "+1 212.555.0111"),
                    Contact(id: 2, firstName: "ada", lastName: "lovelace", phone: "2125550199"),
                ])))

        #expect(
            display.fetchViewModels == [
                .init(displayedContacts: [
                    .init(name: "Jean-Luc Picard", phone: "+1 (212) 555-0111"),
                    .init(name: "Ada Lovelace", phone: "(212) 555-0199"),
                ])
            ])
    }

    @Test func aFailure_isShownAsAMessage() {
        struct Offline: Error, CustomStringConvertible { var description: String { "offline" } }

        presenter.presentFetchContacts(response: .init(result: .failure(Offline())))

        #expect(
            display.fetchViewModels == [
                .init(displayedContacts: [], errorMessage: "The contacts could not be loaded: offline")
            ])
    }

    @Test func aSelection_letsTheViewControllerRoute() {
        presenter.presentSelectContact(
            response: .init(result: .success(Contact(id: 1, firstName: "a", lastName: "b", phone: ""))))

        #expect(display.selectViewModels == [.init(isSelected: true)])
    }

    @Test(arguments: [
        (ListContacts.SelectContact.SelectionError.missingNumber, "Say which contact, such as: show 2"),
        (.notANumber("two"), "\"two\" is not a row number, such as 2."),
        (.noSuchRow(9, rowCount: 4), "There is no contact 9: choose 1 to 4."),
        (.noSuchRow(1, rowCount: 0), "There is no contact 1: the list is empty."),
    ])
    func aBadSelection_saysWhatWasWrong(error: ListContacts.SelectContact.SelectionError, message: String) {
        presenter.presentSelectContact(response: .init(result: .failure(error)))

        #expect(display.selectViewModels == [.init(isSelected: false, errorMessage: message)])
    }
}
