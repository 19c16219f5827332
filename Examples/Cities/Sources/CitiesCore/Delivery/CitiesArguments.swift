import ExampleSupport

/// The command line of the `Cities` executable.
public enum CitiesArguments {
    /// How to call the executable.
    public static let usage = """
        usage: Cities [--file PATH]
          Keeps a list of cities in PATH (default: ~/.local/share/ResponseKitExamples/Cities/cities.json);
          reads commands from standard input: type 'help'.
        """

    /// Reads the arguments after the program name.
    ///
    /// - Parameter arguments: the command-line arguments after the program name.
    /// - Returns: the file to keep the list in (`nil` for the default), help, or what is wrong.
    public static func parse(_ arguments: [String]) -> CommandLineRequest<String?> {
        var file: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                return .help
            case "--file":
                guard let path = remaining.popFirst(), !path.isEmpty else { return .invalid("--file needs a path") }
                file = path
            default:
                return .invalid(
                    argument.hasPrefix("-") ? "unknown option \(argument)" : "unexpected argument \(argument)")
            }
        }
        return .run(file)
    }
}
