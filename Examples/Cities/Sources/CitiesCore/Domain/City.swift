/// A city on the list.
public nonisolated struct City: Hashable, Sendable, Codable {
    /// The longest name accepted.
    public static let maximumNameLength = 80

    /// The name as the user typed it, trimmed: `New York`.
    public let name: String

    /// Makes a city from a name that is already valid.
    ///
    /// - Parameter name: a name that ``named(_:)`` accepts.
    public init(name: String) {
        self.name = name
    }

    /// Makes a city from a name as typed.
    ///
    /// - Parameter typed: the name, with any surrounding spaces.
    /// - Returns: the city, its name trimmed.
    /// - Throws: ``CitiesError/emptyName`` or ``CitiesError/nameTooLong(_:)``.
    public static func named(_ typed: String) throws(CitiesError) -> City {
        let name = typed.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !name.isEmpty else { throw .emptyName }
        guard name.count <= maximumNameLength else { throw .nameTooLong(name.count) }
        return City(name: name)
    }

    /// Whether `other` names the same city: letter case does not matter (`paris` is `Paris`).
    ///
    /// - Parameter other: another city.
    /// - Returns: whether both name the same city.
    public func isSame(as other: City) -> Bool {
        name.lowercased() == other.name.lowercased()
    }
}
