import CitiesCore
import ResponseKit
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct DeleteCityTests {
    let gateway = InMemoryCitiesGateway(cities: [City(name: "Paris"), City(name: "New York"), City(name: "Lima")])
    var deleteCity: DeleteCity { DeleteCity(gateway: gateway) }

    @Test func deletesTheCity_keepingTheOrderOfTheOthers() throws {
        let change = try deleteCity.execute(name: "New York").value

        #expect(
            change == CitiesChange(city: City(name: "New York"), cities: [City(name: "Paris"), City(name: "Lima")]))
        #expect(gateway.storedCities == [City(name: "Paris"), City(name: "Lima")])
    }

    @Test func matchesTheNameWithoutRegardToCaseOrSpacing_andReportsItAsStored() throws {
        #expect(try deleteCity.execute(name: " new  york").value.city == City(name: "New York"))
    }

    @Test func aCityNotListed_isRefused_andTheListKept() {
        #expect(throws: CitiesError.notListed("Rome")) { try deleteCity.execute(name: "Rome").value }
        #expect(gateway.storedCities.count == 3)
    }

    @Test func anEmptyName_isRefused() {
        #expect(throws: CitiesError.emptyName) { try deleteCity.execute(name: " ").value }
        #expect(gateway.storedCities.count == 3)
    }
}
