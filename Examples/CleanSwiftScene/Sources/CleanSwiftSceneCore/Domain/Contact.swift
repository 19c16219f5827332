/// A person in the address book, as stored: names and phone number as they were typed.
public nonisolated struct Contact: Hashable, Sendable {
    /// The store's identifier.
    public let id: Int
    /// The first name, as typed: `jean-luc`.
    public let firstName: String
    /// The last name, as typed: `PICARD`.
    public let lastName: String
    /// The phone number, as typed: `212.555.0111`.
    public let phone: String

    /// Makes a contact.
    ///
    /// - Parameters:
    ///   - id: the store's identifier.
    ///   - firstName: the first name, as typed.
    ///   - lastName: the last name, as typed.
    ///   - phone: the phone number, as typed.
    public init(id: Int, firstName: String, lastName: String, phone: String) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
    }
}
