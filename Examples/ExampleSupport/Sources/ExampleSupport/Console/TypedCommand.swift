/// A command line a person typed, split into its name and what follows.
///
/// ```swift
/// let command = TypedCommand("add  New York")
/// command.name        // "add"
/// command.arguments   // ["New", "York"]
/// command.remainder   // "New York"
/// ```
public nonisolated struct TypedCommand: Hashable, Sendable {
    /// The first word, lowercased: `add` for `Add Paris`.
    public let name: String
    /// The words after the name.
    public let arguments: [String]
    /// Everything after the name, trimmed, with inner spacing kept: a city name such as `New York`.
    public let remainder: String

    /// Splits `line` at spaces and tabs.
    ///
    /// - Parameter line: what was typed.
    public init(_ line: String) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        name = words.first.map { $0.lowercased() } ?? ""
        arguments = words.dropFirst().map(String.init)
        if let first = words.first {
            remainder = String(line[first.endIndex...]).trimmingSpaces()
        } else {
            remainder = ""
        }
    }
}

nonisolated extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
