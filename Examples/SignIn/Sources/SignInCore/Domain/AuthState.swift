/// Whether someone is signed in, as far as the app knows.
public nonisolated enum AuthState: Hashable, Sendable {
    /// `user` is signed in.
    case signedIn(User)
    /// Nobody is signed in.
    case signedOut
    /// The app has not found out yet, or could not: the session check failed.
    case unknown

    /// The signed-in user, if any.
    public var user: User? {
        if case .signedIn(let user) = self { return user }
        return nil
    }
}
