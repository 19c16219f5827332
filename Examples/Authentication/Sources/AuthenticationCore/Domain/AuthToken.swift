/// The secret the backend issues on sign-in; it proves who the user is on later requests.
///
/// Its description hides the value, so a token written to a log or an error message leaks nothing.
public nonisolated struct AuthToken: Hashable, Sendable, CustomStringConvertible {
    /// The secret itself.
    public let value: String

    /// Makes a token.
    ///
    /// - Parameter value: the secret.
    public init(value: String) {
        self.value = value
    }

    /// `AuthToken(<redacted>)`: never the value.
    public var description: String { "AuthToken(<redacted>)" }
}
