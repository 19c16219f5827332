import ResponseKit

/// The use case that takes a city off the list.
public nonisolated struct DeleteCity: Sendable {
    private let gateway: any CitiesGateway

    /// Makes the use case.
    ///
    /// - Parameter gateway: where the list is kept.
    public init(gateway: any CitiesGateway) {
        self.gateway = gateway
    }

    /// Deletes the city called `name`; letter case does not matter.
    ///
    /// - Parameter name: the name as typed.
    /// - Returns: the city deleted and the new list; or a ``CitiesError`` (an empty name fails at once, without touching
    ///   the list), or the gateway's failure.
    public func execute(name: String) -> Response<CitiesChange> {
        let city: City
        do {
            city = try City.named(name)
        } catch {
            return .failed(error)
        }
        return gateway.updateCities { cities in
            guard let index = cities.firstIndex(where: { $0.isSame(as: city) }) else {
                throw CitiesError.notListed(city.name)
            }
            let deleted = cities.remove(at: index)
            return CitiesChange(city: deleted, cities: cities)
        }
    }
}
