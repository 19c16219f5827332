/// Why signing in or out did not work. Each case says so in words for the person at the screen.
public nonisolated enum SignInError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The username was left empty; the worker was not asked.
    case missingUsername
    /// The password was left empty; the worker was not asked.
    case missingPassword
    /// No account has this username and password.
    case wrongCredentials
    /// The authentication service could not be reached.
    case serviceUnavailable

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .missingUsername: "Enter a username."
        case .missingPassword: "Enter a password."
        case .wrongCredentials: "Wrong username or password."
        case .serviceUnavailable: "The sign-in service cannot be reached: try again later."
        }
    }
}
