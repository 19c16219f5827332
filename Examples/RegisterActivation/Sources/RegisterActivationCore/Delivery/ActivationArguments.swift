/// The command line of the `RegisterActivation` executable.
public nonisolated enum ActivationArguments {
    /// What the command line asks for.
    public enum Parsed: Equatable, Sendable {
        /// Activate with these options.
        case activate(ActivationOptions)
        /// Print the usage.
        case help
        /// The command line is wrong: say why, then print the usage.
        case invalid(String)
    }

    /// How to call the executable.
    public static let usage = """
        usage: RegisterActivation <store name> <login> <password> <register number> [--latency S] [--timeout S]
          --latency S   how long the fake server takes to answer, in seconds (default 1.5)
          --timeout S   how long to wait for it, in seconds (default 5)
        example: swift run RegisterActivation "Corner Shop" ada secret 2
        """

    /// Reads the arguments (without the program name).
    ///
    /// - Parameter arguments: the command-line arguments after the program name.
    /// - Returns: what they ask for.
    public static func parse(_ arguments: [String]) -> Parsed {
        var fields: [String] = []
        var options = ActivationOptions(
            request: RegisterActivationRequest(storeName: "", login: "", password: "", registerNumber: ""))
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                return .help
            case "--latency", "--timeout":
                guard let text = remaining.popFirst() else { return .invalid("\(argument) needs a number of seconds") }
                guard let seconds = Double(text), seconds >= 0, seconds < 3600 else {
                    return .invalid("\(argument) \(text): give a number of seconds, such as 1.5")
                }
                let duration = Duration.milliseconds(Int64((seconds * 1000).rounded()))
                if argument == "--latency" { options.latency = duration } else { options.timeout = duration }
            default:
                if argument.hasPrefix("--") { return .invalid("unknown option \(argument)") }
                fields.append(argument)
            }
        }
        guard fields.count == 4 else {
            return .invalid("expected 4 fields (store name, login, password, register number), got \(fields.count)")
        }
        options.request = RegisterActivationRequest(
            storeName: fields[0],
            login: fields[1],
            password: fields[2],
            registerNumber: fields[3]
        )
        return .activate(options)
    }
}

/// Everything one run of the executable needs.
public nonisolated struct ActivationOptions: Equatable, Sendable {
    /// The form.
    public var request: RegisterActivationRequest
    /// How long the fake server takes to answer.
    public var latency: Duration = .milliseconds(1500)
    /// How long to wait for it.
    public var timeout: Duration = .seconds(5)

    /// Makes options with the default latency and timeout.
    ///
    /// - Parameter request: the form.
    public init(request: RegisterActivationRequest) {
        self.request = request
    }
}
