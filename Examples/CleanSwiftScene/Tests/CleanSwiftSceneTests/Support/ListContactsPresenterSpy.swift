import CleanSwiftSceneCore
import ResponseKit

/// Records what the interactor hands the presenter; `fetchPresented` finishes at the first fetch
/// outcome, so a test can await it instead of waiting for time to pass.
@MainActor
final class ListContactsPresenterSpy: ListContactsPresentationLogic {
    private(set) var fetchResponses: [ListContacts.FetchContacts.Response] = []
    private(set) var selectResponses: [ListContacts.SelectContact.Response] = []
    private let fetch = Response<Void>.pending(on: .immediate)

    var fetchPresented: Response<Void> { fetch.response }

    func presentFetchContacts(response: ListContacts.FetchContacts.Response) {
        fetchResponses.append(response)
        fetch.resolver.succeed()
    }

    func presentSelectContact(response: ListContacts.SelectContact.Response) {
        selectResponses.append(response)
    }
}
