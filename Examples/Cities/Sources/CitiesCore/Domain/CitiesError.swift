import ExampleSupport

/// Why a change to the list was refused. Each case says so in words for the user.
public nonisolated enum CitiesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No name was given.
    case emptyName
    /// The name has this many characters, more than ``City/maximumNameLength``.
    case nameTooLong(Int)
    /// The city is already on the list (under this name).
    case alreadyListed(String)
    /// No city of this name is on the list.
    case notListed(String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .emptyName: "Give the city's name, such as: add Paris"
        case .nameTooLong(let count): "That name has \(count) characters; the limit is \(City.maximumNameLength)."
        case .alreadyListed(let name): "\(InputEcho.display(name)) is already on the list."
        case .notListed(let name): "\(InputEcho.display(name)) is not on the list."
        }
    }
}
