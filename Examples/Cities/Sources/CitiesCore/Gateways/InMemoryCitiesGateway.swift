import ExampleSupport
import ResponseKit

/// Keeps the list of cities in memory: for tests, and for apps that need no persistence.
///
/// Answers at once, with responses that are already done and deliver on the given executor.
public nonisolated final class InMemoryCitiesGateway: CitiesGateway {
    private let cities: Locked<[City]>
    private let executor: ResponseExecutor

    /// Makes a gateway holding `cities`.
    ///
    /// - Parameters:
    ///   - cities: the list to start with.
    ///   - executor: where the responses deliver their callbacks; the main queue by default.
    public init(cities: [City] = [], executor: ResponseExecutor = .main) {
        self.cities = Locked(cities)
        self.executor = executor
    }

    /// The list as it is now.
    public var storedCities: [City] {
        cities.withLock { $0 }
    }

    /// Answers with the list.
    public func loadCities() -> Response<[City]> {
        .succeeded(storedCities, on: executor)
    }

    /// Applies `change` under the lock; keeps the list as it was when `change` throws.
    public func updateCities<Outcome: Sendable>(
        _ change: @escaping @Sendable (inout [City]) throws -> Outcome
    ) -> Response<Outcome> {
        // `change` is a use case's pure function of the list; running it under the lock is what
        // makes changes one at a time, as the file gateway's serial queue does.
        let result = cities.withLock { cities in
            Result {
                var edited = cities
                let outcome = try change(&edited)
                cities = edited  // only once `change` has not thrown
                return outcome
            }
        }
        switch result {
        case .success(let outcome): return .succeeded(outcome, on: executor)
        case .failure(let error): return .failed(error, on: executor)
        }
    }
}
