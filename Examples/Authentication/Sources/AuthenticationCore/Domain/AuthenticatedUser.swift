/// The user the backend says a token belongs to.
public nonisolated struct AuthenticatedUser: Hashable, Sendable {
    /// The backend's identifier.
    public let id: Int
    /// The full name, for greetings.
    public let name: String
    /// The email address the user signs in with.
    public let email: String

    /// Makes a user.
    ///
    /// - Parameters:
    ///   - id: the backend's identifier.
    ///   - name: the full name.
    ///   - email: the email address.
    public init(id: Int, name: String, email: String) {
        self.id = id
        self.name = name
        self.email = email
    }
}
