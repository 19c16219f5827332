/// Someone who can sign in.
public nonisolated struct User: Hashable, Sendable {
    /// The name shown on screen, such as `ada`.
    public let name: String

    /// Makes a user.
    ///
    /// - Parameter name: the name shown on screen.
    public init(name: String) {
        self.name = name
    }
}
