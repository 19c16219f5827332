/// What someone types to sign in.
public nonisolated struct Credentials: Hashable, Sendable {
    /// The email address, as typed.
    public let email: String
    /// The password, as typed.
    public let password: String

    /// Makes credentials.
    ///
    /// - Parameters:
    ///   - email: the email address.
    ///   - password: the password.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }

    /// Checks the credentials before anything is sent: an address of the form `name@host.domain`,
    /// and a password.
    ///
    /// - Throws: ``AuthenticationError/invalidEmail`` or ``AuthenticationError/emptyPassword``.
    public func validate() throws(AuthenticationError) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !email.contains(where: \.isWhitespace) else { throw .invalidEmail }
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard domain.count >= 2, !domain.contains(where: \.isEmpty) else { throw .invalidEmail }
        guard !password.isEmpty else { throw .emptyPassword }
    }
}
