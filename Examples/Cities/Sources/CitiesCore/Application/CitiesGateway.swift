import ResponseKit

/// Where the list of cities is kept, as the use cases see it.
///
/// The application layer owns this protocol; the gateway layer implements it:
/// ``FileCitiesGateway`` keeps the list on disk, ``InMemoryCitiesGateway`` in memory for tests.
/// Both methods return at once and finish later.
public nonisolated protocol CitiesGateway: Sendable {
    /// Reads the list.
    ///
    /// - Returns: the cities, in the order they were added; a failure when the list cannot be read.
    func loadCities() -> Response<[City]>

    /// Changes the list: reads it, lets `change` edit it, and saves the edited list.
    ///
    /// Changes run one at a time, so two changes never lose each other's work. When `change`
    /// throws, nothing is saved.
    ///
    /// - Parameter change: edits the list in place and says what it did, or throws to refuse.
    /// - Returns: what `change` returned, once the list is saved; or the error `change` threw, or
    ///   why the list could not be read or saved (then the stored list is as it was).
    func updateCities<Outcome: Sendable>(
        _ change: @escaping @Sendable (inout [City]) throws -> Outcome
    ) -> Response<Outcome>
}
