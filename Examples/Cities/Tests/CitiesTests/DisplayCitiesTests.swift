import CitiesCore
import ResponseKit
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct DisplayCitiesTests {
    @Test func answersWithTheStoredList_inTheOrderAdded() throws {
        let gateway = InMemoryCitiesGateway(cities: [City(name: "Lima"), City(name: "Paris")])

        #expect(try DisplayCities(gateway: gateway).execute().value == [City(name: "Lima"), City(name: "Paris")])
    }

    @Test func passesTheGatewaysFailureOn() {
        struct Unplugged: Error {}
        struct FailingGateway: CitiesGateway {
            func loadCities() -> Response<[City]> { .failed(Unplugged()) }
            func updateCities<Outcome: Sendable>(_ change: @escaping @Sendable (inout [City]) throws -> Outcome)
                -> Response<Outcome>
            {
                .failed(Unplugged())
            }
        }

        #expect(throws: Unplugged.self) { try DisplayCities(gateway: FailingGateway()).execute().value }
    }
}
