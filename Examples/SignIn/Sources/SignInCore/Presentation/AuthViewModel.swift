/// What the auth screen shows: a status line, the buttons that make sense now, and the last error.
public nonisolated struct AuthViewModel: Hashable, Sendable {
    /// A button of the auth screen.
    public enum Button: String, Hashable, Sendable, CustomStringConvertible {
        /// Sign in, shown when nobody is signed in.
        case signIn = "sign in"
        /// Sign out, shown when someone is signed in.
        case signOut = "sign out"
        /// Check the session again, after a check failed.
        case retry = "retry"

        /// The button's label.
        public var description: String { rawValue }
    }

    /// `Signed in as ada`, `Signed out`, or `Not sure whether you are signed in`.
    public let status: String
    /// The buttons to show, in order.
    public let buttons: [Button]
    /// What went wrong with the last request, or `nil` when it worked.
    public let errorMessage: String?

    /// Makes a view model.
    ///
    /// - Parameters:
    ///   - status: the status line.
    ///   - buttons: the buttons to show.
    ///   - errorMessage: what went wrong with the last request.
    public init(status: String, buttons: [Button], errorMessage: String? = nil) {
        self.status = status
        self.buttons = buttons
        self.errorMessage = errorMessage
    }
}
