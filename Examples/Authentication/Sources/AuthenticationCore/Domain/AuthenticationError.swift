/// Why authentication failed. Each case says so in words for the person signing in.
public nonisolated enum AuthenticationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The email address is not of the form `name@host.domain`; nothing was sent.
    case invalidEmail
    /// The password is empty; nothing was sent.
    case emptyPassword
    /// The backend knows no such email and password.
    case wrongCredentials
    /// The account exists but may not sign in.
    case accountDisabled
    /// The backend answered with this HTTP status.
    case server(status: Int)
    /// The backend answered for another user than the one who signed in.
    case unexpectedUser
    /// The backend did not answer in time; the request was cancelled.
    case timedOut
    /// The token could not be stored, so the user would be signed out at once: the sign-in fails.
    case tokenNotStored(String)
    /// The backend answered, but not in the agreed format (a body that is not the expected JSON):
    /// the request, then what was wrong, such as `POST /token: no field "token"`.
    case malformedResponse(String)
    /// The backend could not be reached at all (nothing listens, an unknown host, a dropped
    /// connection): its host and port, then why, such as `127.0.0.1:8080: connection refused`.
    case unreachable(String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .invalidEmail: "Enter an email address such as ada@example.com."
        case .emptyPassword: "Enter your password."
        case .wrongCredentials: "Wrong email or password."
        case .accountDisabled: "This account is disabled: contact support."
        case .server(let status): "The server had a problem (HTTP \(status)): try again in a moment."
        case .unexpectedUser: "The server answered for another account: sign in again."
        case .timedOut: "The server did not answer in time: check your connection and try again."
        case .tokenNotStored(let reason): "Signed in, but the session could not be saved (\(reason))."
        case .malformedResponse(let what): "The server's answer could not be read (\(what)): try again later."
        case .unreachable(let what): "The server cannot be reached (\(what)): check that it is running."
        }
    }
}
