import CleanSwiftSceneCore
import ExampleSupport
import ResponseKit
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
@MainActor
struct ListContactsRouterTests {
    final class DataStoreStub: ListContactsDataStore {
        var contacts: [Contact] = []
        var selectedContact: Contact?
    }

    let navigator = SceneNavigator()
    let printed = Recorder<String>()
    let source = DataStoreStub()

    func makeRouter() -> ListContactsRouter {
        let router = ListContactsRouter(navigator: navigator, output: ConsoleOutput { [printed] in printed.record($0) })
        router.dataStore = source
        return router
    }

    @Test func passDataToShowContact_handsOverTheSelectedContact() {
        let contact = Contact(id: 7, firstName: "grace", lastName: "hopper", phone: "2125550142")
        source.selectedContact = contact
        let destination = ShowContactInteractor()

        makeRouter().passDataToShowContact(source: source, destination: destination)

        #expect(destination.contact == contact)
    }

    @Test func routeToShowContact_pushesTheContactsScene_whichShowsIt() throws {
        source.selectedContact = Contact(id: 7, firstName: "grace", lastName: "hopper", phone: "2125550142")

        let shown = makeRouter().routeToShowContact()

        #expect(shown.isSuccessful)
        #expect(navigator.stack.count == 1)
        #expect(navigator.top is ShowContactViewController)
        #expect(printed.values == ["[GH] Grace Hopper\n", "     phone: (212) 555-0142\n"])
    }
}
