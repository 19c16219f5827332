import ExampleSupport
import Foundation

/// The command line of the `Authentication` executable.
public enum AuthenticationArguments {
    /// What one run does.
    public struct Options: Equatable, Sendable {
        /// Where the token is kept; `nil` for the default.
        public var tokenFile: String?
        /// The one sign-in to try, as email and password; `nil` for the tour.
        public var credentials: [String]?
        /// The HTTP backend to talk to (``HTTPAuthenticationAPI``); `nil` for the in-process fake.
        public var authServer: URL?

        /// Makes options.
        ///
        /// - Parameters:
        ///   - tokenFile: where the token is kept; `nil` for the default.
        ///   - credentials: the email and password to try; `nil` for the tour.
        ///   - authServer: the HTTP backend's base URL; `nil` for the in-process fake.
        public init(tokenFile: String? = nil, credentials: [String]? = nil, authServer: URL? = nil) {
            self.tokenFile = tokenFile
            self.credentials = credentials
            self.authServer = authServer
        }
    }

    /// How to call the executable.
    public static let usage = """
        usage: Authentication [--token-file PATH] [--auth-server URL] [EMAIL PASSWORD]
          Without EMAIL and PASSWORD, a tour of the outcomes (bad email, wrong password, disabled
          account, server error, success). The token is kept in PATH
          (default: ~/.local/share/ResponseKitExamples/Authentication/token). With --auth-server,
          the backend is the HTTP server at URL (http:// or https://; the wire protocol is in
          Examples/Authentication/README.md) instead of the in-process fake.
        """

    /// Reads the arguments after the program name.
    ///
    /// - Parameter arguments: the command-line arguments after the program name.
    /// - Returns: the options, help, or what is wrong.
    public static func parse(_ arguments: [String]) -> CommandLineRequest<Options> {
        var options = Options()
        var fields: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                return .help
            case "--token-file":
                guard let path = remaining.popFirst(), !path.isEmpty else {
                    return .invalid("--token-file needs a path")
                }
                options.tokenFile = path
            case "--auth-server":
                guard let text = remaining.popFirst(), let url = HTTPAuthenticationAPI.baseURL(parsing: text) else {
                    return .invalid("--auth-server needs an http:// or https:// URL, such as http://127.0.0.1:8080")
                }
                options.authServer = url
            default:
                if argument.hasPrefix("--") { return .invalid("unknown option \(argument)") }
                fields.append(argument)
            }
        }
        switch fields.count {
        case 0: break
        case 2: options.credentials = fields
        default: return .invalid("expected an email and a password, or neither; got \(fields.count) arguments")
        }
        return .run(options)
    }
}
