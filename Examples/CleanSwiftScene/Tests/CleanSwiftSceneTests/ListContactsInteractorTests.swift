import CleanSwiftSceneCore
import ResponseKit
import ResponseKitTesting
import Testing

/// The interactor with the worker on an in-memory store whose latency is moved by hand. Awaiting
/// the presenter spy suspends the main actor, so the interactor's main-queue callback runs.
@Suite(.responseChecks)
@MainActor
struct ListContactsInteractorTests {
    let scheduler = ManualScheduler()
    let presenter = ListContactsPresenterSpy()

    func makeInteractor(failure: (any Error)? = nil) -> ListContactsInteractor {
        let store = InMemoryContactsStore(latency: .milliseconds(200), scheduler: scheduler, failure: failure)
        let interactor = ListContactsInteractor(worker: ContactsWorker(store: store))
        interactor.presenter = presenter
        return interactor
    }

    /// Fetches, lets the store answer, and waits until the outcome reached the presenter.
    func fetch(with interactor: ListContactsInteractor) async throws {
        interactor.fetchContacts(request: .init())
        #expect(presenter.fetchResponses.isEmpty, "nothing is presented before the store answers")
        scheduler.advance(by: .milliseconds(200))
        try await presenter.fetchPresented.get()
    }

    // MARK: - fetchContacts

    @Test func fetchContacts_presentsThemSortedByLastNameThenFirstName_ignoringCase() async throws {
        let interactor = makeInteractor()

        try await fetch(with: interactor)

        let contacts = try #require(try presenter.fetchResponses.first?.result.get())
        #expect(contacts.map(\.id) == [3, 1, 4, 2])  // hopper, LOVELACE, o'brien, picard
        #expect(interactor.contacts == contacts)
    }

    @Test func fetchContacts_presentsAFailure_too() async throws {
        struct Offline: Error {}
        let interactor = makeInteractor(failure: Offline())

        try await fetch(with: interactor)

        #expect(throws: Offline.self) { try presenter.fetchResponses.first?.result.get() }
        #expect(interactor.contacts.isEmpty)
    }

    // MARK: - selectContact

    @Test func selectContact_picksTheTypedRow_countingFromOne_andKeepsItForTheRouter() async throws {
        let interactor = makeInteractor()
        try await fetch(with: interactor)

        interactor.selectContact(request: .init(typedNumber: " 2 "))

        #expect(try presenter.selectResponses.last?.result.get().id == 1)
        #expect(interactor.selectedContact?.id == 1)
    }

    @Test(arguments: [
        ("", ListContacts.SelectContact.SelectionError.missingNumber),
        ("two", .notANumber("two")),
        ("0", .noSuchRow(0, rowCount: 4)),
        ("5", .noSuchRow(5, rowCount: 4)),
    ])
    func selectContact_withABadRow_presentsWhy_andSelectsNothing(
        typed: String, error: ListContacts.SelectContact.SelectionError
    ) async throws {
        let interactor = makeInteractor()
        try await fetch(with: interactor)

        interactor.selectContact(request: .init(typedNumber: typed))

        #expect(throws: error) { try presenter.selectResponses.last?.result.get() }
        #expect(interactor.selectedContact == nil)
    }
}
