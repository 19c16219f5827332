/// Where the session's token is kept between runs.
///
/// The token is a password in all but name: keep it where only the user can read it
/// (``FileTokenStore``, a file with permissions 0600; the Keychain on Apple platforms), never in
/// plain preferences, which any process of the user, and every backup, can read.
public nonisolated protocol TokenStore: Sendable {
    /// Stores `token`, replacing any previous one.
    ///
    /// - Parameter token: the token.
    /// - Throws: why it could not be stored.
    func save(_ token: AuthToken) throws

    /// The stored token, or `nil` when there is none.
    ///
    /// - Throws: why it could not be read.
    func load() throws -> AuthToken?

    /// Forgets the token, if there is one.
    ///
    /// - Throws: why it could not be removed.
    func delete() throws
}
