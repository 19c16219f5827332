import CitiesCore
import ResponseKit
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct AddCityTests {
    let gateway = InMemoryCitiesGateway(cities: [City(name: "Paris")])
    var addCity: AddCity { AddCity(gateway: gateway) }

    @Test func addsTheCityToTheEndOfTheList() throws {
        let change = try addCity.execute(name: "Lima").value

        #expect(change == CitiesChange(city: City(name: "Lima"), cities: [City(name: "Paris"), City(name: "Lima")]))
        #expect(gateway.storedCities == [City(name: "Paris"), City(name: "Lima")])
    }

    @Test func tidiesTheSpacesInTheName() throws {
        #expect(try addCity.execute(name: "  New \t  York ").value.city == City(name: "New York"))
    }

    @Test func aCityAlreadyListed_underAnyLetterCase_isRefused_andTheListKept() {
        #expect(throws: CitiesError.alreadyListed("Paris")) { try addCity.execute(name: "PARIS").value }
        #expect(gateway.storedCities == [City(name: "Paris")])
    }

    @Test(arguments: ["", "   ", "\t"])
    func anEmptyName_isRefused(name: String) {
        #expect(throws: CitiesError.emptyName) { try addCity.execute(name: name).value }
        #expect(gateway.storedCities == [City(name: "Paris")])
    }

    @Test func aNameOverTheLimit_isRefused() {
        let name = String(repeating: "a", count: City.maximumNameLength + 1)

        #expect(throws: CitiesError.nameTooLong(City.maximumNameLength + 1)) { try addCity.execute(name: name).value }
    }
}
