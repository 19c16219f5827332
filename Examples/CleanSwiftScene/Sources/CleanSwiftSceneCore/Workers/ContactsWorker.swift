import ResponseKit

/// The scene's worker: the business rules around fetching contacts, reusable by any scene.
///
/// It sorts the address book by last name, then first name, ignoring letter case, the way the
/// app always shows it.
public nonisolated struct ContactsWorker: Sendable {
    private let store: any ContactsStore

    /// Makes a worker.
    ///
    /// - Parameter store: where the contacts are kept.
    public init(store: any ContactsStore) {
        self.store = store
    }

    /// Fetches the contacts, sorted.
    ///
    /// - Returns: the contacts by last name then first name, or the store's failure.
    public func fetchContacts() -> Response<[Contact]> {
        store.fetchContacts().map { contacts in
            contacts.sorted { lhs, rhs in
                (lhs.lastName.lowercased(), lhs.firstName.lowercased()) < (
                    rhs.lastName.lowercased(), rhs.firstName.lowercased()
                )
            }
        }
    }
}
