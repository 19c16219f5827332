import AuthenticationCore
import Foundation

/// The command line of `ResponseKitDemo`.
public struct DemoArguments: Equatable, Sendable {
    /// How to call the demo.
    public static let usage = """
        usage: ResponseKitDemo [--data-dir DIR] [--auth-server URL] [--serve | COMMAND ...]
          Without commands, reads them from standard input (type 'help'); each COMMAND argument
          is one command line, such as "add New York". Data stays in DIR between runs
          (default: ~/.local/share/ResponseKitExamples/ResponseKitDemo). With --auth-server,
          signs in over HTTP at URL (such as http://127.0.0.1:8080) instead of the built-in fake.
          Ends with 'quit', the end of the input, Ctrl-C (SIGINT) or SIGTERM; a command in flight
          finishes first. Exit status: 0 after a clean shutdown, 1 when a service failed to stop,
          64 for a wrong command line, 73 when DIR cannot be created or written.
          With --serve, runs as a service (under systemd, say): no command line, nothing read from
          standard input; the app's services run until SIGTERM or SIGINT, and SIGHUP reloads them.
        """

    /// Where the demo keeps its files; `nil` for the default.
    public var dataDirectory: String?
    /// Commands given as arguments; `nil` to read standard input.
    public var commands: [String]?
    /// The authentication server to sign in with over HTTP; `nil` for the in-process fake.
    public var authServer: URL?
    /// Whether to run as a service, without a command line (`--serve`).
    public var serve = false

    /// Makes arguments.
    ///
    /// - Parameters:
    ///   - dataDirectory: where the demo keeps its files.
    ///   - commands: commands given as arguments.
    ///   - authServer: the authentication server's base URL; `nil` for the in-process fake.
    public init(dataDirectory: String? = nil, commands: [String]? = nil, authServer: URL? = nil) {
        self.dataDirectory = dataDirectory
        self.commands = commands
        self.authServer = authServer
    }

    /// Reads the arguments after the program name.
    ///
    /// - Parameter arguments: the command-line arguments after the program name.
    /// - Returns: the arguments, or a sentence saying what is wrong.
    public static func parse(_ arguments: [String]) -> Result<DemoArguments, UsageError> {
        var parsed = DemoArguments()
        var remaining = arguments[...]
        var commands: [String] = []
        while let argument = remaining.popFirst() {
            switch argument {
            case "--data-dir":
                guard let directory = remaining.popFirst(), !directory.isEmpty else {
                    return .failure(UsageError(message: "--data-dir needs a directory"))
                }
                parsed.dataDirectory = directory
            case "--auth-server":
                guard let url = remaining.popFirst().flatMap(HTTPAuthenticationAPI.baseURL(parsing:)) else {
                    return .failure(
                        UsageError(
                            message: "--auth-server needs an http:// or https:// URL, such as http://127.0.0.1:8080"))
                }
                parsed.authServer = url
            case "--serve":
                parsed.serve = true
            case "-h", "--help":
                return .failure(UsageError(message: nil))
            default:
                if argument.hasPrefix("--") { return .failure(UsageError(message: "unknown option \(argument)")) }
                commands.append(argument)
            }
        }
        parsed.commands = commands.isEmpty ? nil : commands
        if parsed.serve, !commands.isEmpty {
            return .failure(UsageError(message: "--serve takes no commands: it runs without a command line"))
        }
        return .success(parsed)
    }

    /// The command line was wrong, or help was asked for.
    public struct UsageError: Error, Equatable, Sendable {
        /// What was wrong; `nil` when help was asked for.
        public let message: String?

        /// Makes an error.
        ///
        /// - Parameter message: what was wrong; `nil` when help was asked for.
        public init(message: String?) {
            self.message = message
        }
    }
}
