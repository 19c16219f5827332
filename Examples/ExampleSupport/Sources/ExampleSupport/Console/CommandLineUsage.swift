#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How every example's executable answers `--help` and a bad command line, alike.
///
/// - `-h` or `--help`: the usage on standard output, exit status 0 (help was asked for and given).
/// - A bad option or argument: `Program: what is wrong`, then the usage, on standard error, exit
///   status 64 (`EX_USAGE` of `sysexits(3)`), so that a script notices and a pipe stays clean.
///
/// ```swift
/// let usage = CommandLineUsage(program: "Cities", text: "usage: Cities [--file PATH]")
/// switch CitiesArguments.parse(arguments) {
/// case .run(let options): run(options)
/// case .help: usage.exitShowingHelp()
/// case .invalid(let problem): usage.exitRejecting(problem)
/// }
/// ```
public nonisolated struct CommandLineUsage: Sendable {
    /// 64, `EX_USAGE` of `sysexits(3)`: the command line was wrong.
    public static let badUsageStatus: Int32 = 64

    /// The executable's name, which starts the line of a problem.
    public let program: String
    /// The usage, one or more lines, starting with `usage: `.
    public let text: String

    /// Makes the usage of `program`.
    ///
    /// - Parameters:
    ///   - program: the executable's name.
    ///   - text: the usage, starting with `usage: `.
    public init(program: String, text: String) {
        self.program = program
        self.text = text
    }

    /// What to print, where, and the exit status, for help (`problem == nil`) or a problem.
    ///
    /// - Parameter problem: what is wrong with the command line; `nil` when help was asked for.
    /// - Returns: the text (ending with a newline), whether it goes to standard error, and the status.
    public func answer(to problem: String?) -> (text: String, isError: Bool, status: Int32) {
        guard let problem else { return (text + "\n", false, 0) }
        return ("\(program): \(InputEcho.display(problem))\n\(text)\n", true, Self.badUsageStatus)
    }

    /// Prints the usage on standard output and exits with status 0.
    public func exitShowingHelp() -> Never {
        exit(answering: nil)
    }

    /// Prints `problem` and the usage on standard error and exits with status 64.
    ///
    /// - Parameter problem: what is wrong, such as `unknown option --colour`.
    public func exitRejecting(_ problem: String) -> Never {
        exit(answering: problem)
    }

    private func exit(answering problem: String?) -> Never {
        let answer = answer(to: problem)
        (answer.isError ? ConsoleOutput.standardError : .standardOutput).write(answer.text)
        #if canImport(Darwin)
        Darwin.exit(answer.status)
        #elseif canImport(Glibc)
        Glibc.exit(answer.status)
        #else
        Musl.exit(answer.status)
        #endif
    }
}

/// What an example's command line asks for.
public nonisolated enum CommandLineRequest<Options: Sendable>: Sendable {
    /// Run with these options.
    case run(Options)
    /// Print the usage: `-h` or `--help`.
    case help
    /// The command line is wrong: say why, then print the usage.
    case invalid(String)
}

extension CommandLineRequest: Equatable where Options: Equatable {}

/// The options of an executable that takes no argument but `-h` / `--help`: none.
public nonisolated struct NoArguments: Equatable, Sendable {
    /// The only value.
    public init() {}
}

extension CommandLineRequest where Options == NoArguments {
    /// Reads the command line of an executable that takes no argument but `-h` / `--help`.
    ///
    /// - Parameter arguments: the command-line arguments after the program name.
    /// - Returns: `.run` when there are none, `.help` when one is `-h` or `--help`, otherwise
    ///   `.invalid` naming the first argument.
    public static func parsingNoArguments(_ arguments: [String]) -> CommandLineRequest<NoArguments> {
        guard let first = arguments.first else { return .run(NoArguments()) }
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help }
        return .invalid(first.hasPrefix("-") ? "unknown option \(first)" : "unexpected argument \(first)")
    }
}
