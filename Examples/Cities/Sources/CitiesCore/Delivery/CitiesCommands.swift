import ExampleSupport
import ResponseKit

/// The cities commands at the command line: `list`, `add <name>`, `delete <name>`.
@MainActor
public final class CitiesCommands {
    /// One line per command, for `help`.
    public static let help = [
        "list                           show the cities",
        "add <city>                     add a city, such as: add New York",
        "delete <city>                  delete a city",
    ]

    /// The command names, aliases included: for an app that routes commands between modules.
    public static let names: Set<String> = ["list", "ls", "add", "delete", "del", "rm"]

    private let controller: CitiesController

    /// Makes the commands.
    ///
    /// - Parameter controller: what the commands do.
    public init(controller: CitiesController) {
        self.controller = controller
    }

    /// Runs `command` if it is a cities command.
    ///
    /// - Parameter command: what was typed.
    /// - Returns: a response that finishes once the outcome is shown, or `nil` when `command` is
    ///   not a cities command, for the caller to try elsewhere.
    public func handle(_ command: TypedCommand) -> Response<Void>? {
        switch command.name {
        case "list", "ls": controller.showCities()
        case "add": controller.addCity(named: command.remainder)
        case "delete", "del", "rm": controller.deleteCity(named: command.remainder)
        default: nil
        }
    }
}
