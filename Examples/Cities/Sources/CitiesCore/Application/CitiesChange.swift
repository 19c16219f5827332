/// What adding or deleting a city did: the city concerned, and the list afterwards.
public nonisolated struct CitiesChange: Hashable, Sendable {
    /// The city added, or the city deleted (named as it was stored).
    public let city: City
    /// The list after the change, as saved.
    public let cities: [City]

    /// Makes a change.
    ///
    /// - Parameters:
    ///   - city: the city added or deleted.
    ///   - cities: the list after the change.
    public init(city: City, cities: [City]) {
        self.city = city
        self.cities = cities
    }
}
