import CitiesCore
import ExampleSupport
import Foundation
import ResponseKit
import Testing

/// The file gateway on real files, in a fresh directory per test. Each call blocks on its response.
struct FileCitiesGatewayTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cities.json") }

    func makeGateway() -> FileCitiesGateway {
        FileCitiesGateway(path: path)
    }

    func add(_ name: String, to gateway: FileCitiesGateway) throws {
        _ = try gateway.updateCities { cities in cities.append(City(name: name)) }.value
    }

    func fileContents() throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    // MARK: - Persistence

    @Test func withNoFile_theListIsEmpty_andNoFileIsCreatedByReading() throws {
        #expect(try makeGateway().loadCities().value == [])
        #expect(directory.entries == [])
    }

    @Test func aSavedList_survivesARestart() throws {
        try add("Paris", to: makeGateway())
        try add("Lima", to: makeGateway())

        let afterRestart = makeGateway()

        #expect(try afterRestart.loadCities().value == [City(name: "Paris"), City(name: "Lima")])
    }

    @Test func theFileIsVersionedJSON() throws {
        try add("Paris", to: makeGateway())

        #expect(try fileContents() == #"{"cities":[{"name":"Paris"}],"version":1}"#)
    }

    @Test func createsTheFilesDirectory_whenItIsMissing() throws {
        let gateway = FileCitiesGateway(path: directory.path("nested/deeper/cities.json"))

        _ = try gateway.updateCities { cities in cities.append(City(name: "Oslo")) }.value

        #expect(try FileCitiesGateway(path: directory.path("nested/deeper/cities.json")).loadCities().value == [City(name: "Oslo")])
    }

    @Test func changesRunOneAtATime_soConcurrentChangesAreAllKept() throws {
        let gateway = makeGateway()

        let changes = (1...20).map { number in gateway.updateCities { cities in cities.append(City(name: "City \(number)")) } }
        _ = try Response.all(changes, on: .immediate).value

        #expect(try gateway.loadCities().value.count == 20)
    }

    // MARK: - Atomic writes

    @Test func writingLeavesNoTemporaryFileBehind() throws {
        let gateway = makeGateway()
        try add("Paris", to: gateway)
        try add("Lima", to: gateway)

        #expect(directory.entries == ["cities.json"])
    }

    @Test func aChangeThatThrows_savesNothing() throws {
        let gateway = makeGateway()
        try add("Paris", to: gateway)
        let before = try fileContents()

        #expect(throws: CitiesError.alreadyListed("Paris")) {
            try gateway.updateCities { cities in
                cities.append(City(name: "Lima"))
                throw CitiesError.alreadyListed("Paris")
            }.value
        }

        #expect(try fileContents() == before)
    }

    // MARK: - A damaged file is never overwritten

    @Test(arguments: ["{\"cities\": [", "not json at all", "[\"Paris\"]", ""])
    func aDamagedFile_failsToLoad_sayingWhereItIs(contents: String) throws {
        try contents.write(toFile: path, atomically: false, encoding: .utf8)

        let error = try #require(makeGateway().loadCities().error as? CitiesFileError)

        guard case .damaged(let damagedPath, _) = error else {
            Issue.record("expected .damaged, got \(error)")
            return
        }
        #expect(damagedPath == path)
        #expect(error.description.contains("It was left untouched, so nothing is lost"))
    }

    @Test func aDamagedFile_isNeverOverwritten_byAChange() throws {
        let damaged = #"{"cities": [{"name": "Paris"}, {"name": "Li"#   // a truncated list
        try damaged.write(toFile: path, atomically: false, encoding: .utf8)

        let change = makeGateway().updateCities { cities in cities.append(City(name: "Rome")) }

        #expect(change.error is CitiesFileError)
        #expect(try fileContents() == damaged)
        #expect(directory.entries == ["cities.json"])
    }

    @Test func anEmptyFile_isDamaged_notAnEmptyList() throws {
        try "".write(toFile: path, atomically: false, encoding: .utf8)

        #expect(throws: CitiesFileError.damaged(path: path, reason: "the file is empty")) { try makeGateway().loadCities().value }
    }

    @Test func aFileOfAnotherFormatVersion_isLeftAlone() throws {
        let newer = #"{"cities":[],"version":2}"#
        try newer.write(toFile: path, atomically: false, encoding: .utf8)

        let change = makeGateway().updateCities { cities in cities.append(City(name: "Rome")) }

        #expect(throws: CitiesFileError.damaged(path: path, reason: "it has format version 2; this app reads version 1")) {
            try change.value
        }
        #expect(try fileContents() == newer)
    }
}
