import ResponseKit

/// The use case that adds a city to the end of the list, unless it is already there.
public nonisolated struct AddCity: Sendable {
    private let gateway: any CitiesGateway

    /// Makes the use case.
    ///
    /// - Parameter gateway: where the list is kept.
    public init(gateway: any CitiesGateway) {
        self.gateway = gateway
    }

    /// Adds the city called `name`.
    ///
    /// - Parameter name: the name as typed.
    /// - Returns: the city added and the new list; or a ``CitiesError`` (an empty name fails at once, without touching
    ///   the list), or the gateway's failure.
    public func execute(name: String) -> Response<CitiesChange> {
        let city: City
        do {
            city = try City.named(name)
        } catch {
            return .failed(error)
        }
        return gateway.updateCities { cities in
            if let listed = cities.first(where: { $0.isSame(as: city) }) {
                throw CitiesError.alreadyListed(listed.name)
            }
            cities.append(city)
            return CitiesChange(city: city, cities: cities)
        }
    }
}
