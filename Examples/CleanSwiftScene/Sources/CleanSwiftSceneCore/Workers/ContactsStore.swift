import ResponseKit

/// Where contacts are kept: a database or an API in a shipping app, ``InMemoryContactsStore`` here.
public nonisolated protocol ContactsStore: Sendable {
    /// Reads every contact, in no particular order.
    ///
    /// - Returns: a response, returned at once, with the contacts or why they could not be read.
    func fetchContacts() -> Response<[Contact]>
}

/// A contacts store in memory that answers after a delay, timed by a ``ResponseKit/ResponseScheduler``
/// (`ManualScheduler` in tests).
public nonisolated final class InMemoryContactsStore: ContactsStore {
    private let contacts: [Contact]
    private let latency: Duration
    private let scheduler: any ResponseScheduler
    private let failure: (any Error)?

    /// Makes a store.
    ///
    /// - Parameters:
    ///   - contacts: what it holds; messy sample data by default.
    ///   - latency: how long each answer takes.
    ///   - scheduler: the source of time.
    ///   - failure: when set, every fetch fails with it.
    public init(
        contacts: [Contact] = InMemoryContactsStore.sample,
        latency: Duration = .milliseconds(200),
        scheduler: any ResponseScheduler = DispatchScheduler(),
        failure: (any Error)? = nil
    ) {
        self.contacts = contacts
        self.latency = latency
        self.scheduler = scheduler
        self.failure = failure
    }

    /// Answers with the contacts after the latency.
    public func fetchContacts() -> Response<[Contact]> {
        let (response, resolver) = Response<[Contact]>.pending()
        let result: Result<[Contact], any Error> = failure.map { .failure($0) } ?? .success(contacts)
        let reply = scheduler.schedule(after: latency) { resolver.resolve(with: result) }
        resolver.onCancel { reply.cancel() }
        return response
    }

    /// Contacts as people type them: any case, any phone punctuation.
    public static let sample = [
        Contact(id: 1, firstName: "ada", lastName: "LOVELACE", phone: "2125550199"),
        Contact(id: 2, firstName: "jean-luc", lastName: "picard", phone: "+1 212.555.0111"),
        Contact(id: 3, firstName: "GRACE", lastName: "hopper", phone: "(212) 555 0142"),
        Contact(id: 4, firstName: "mary", lastName: "o'brien", phone: "+44 20 7946 0018"),
    ]
}
