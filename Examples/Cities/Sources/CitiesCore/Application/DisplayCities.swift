import ResponseKit

/// The use case that reads the list of cities to show it.
public nonisolated struct DisplayCities: Sendable {
    private let gateway: any CitiesGateway

    /// Makes the use case.
    ///
    /// - Parameter gateway: where the list is kept.
    public init(gateway: any CitiesGateway) {
        self.gateway = gateway
    }

    /// Reads the list.
    ///
    /// - Returns: the cities, in the order they were added.
    public func execute() -> Response<[City]> {
        gateway.loadCities()
    }
}
