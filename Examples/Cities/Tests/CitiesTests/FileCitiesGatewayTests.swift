import CitiesCore
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitTesting
import Testing

/// The file gateway on real files, in a fresh directory per test.
///
/// Each call awaits its response rather than blocking on it: the gateway works on a Dispatch
/// queue, and a test that blocks a thread of the small cooperative pool (two threads on two
/// cores) can leave that queue waiting about a second for a thread.
@Suite(.responseChecks)
struct FileCitiesGatewayTests {
    let directory = TemporaryDirectory()
    var path: String { directory.path("cities.json") }

    func makeGateway() -> FileCitiesGateway {
        FileCitiesGateway(path: path)
    }

    func add(_ name: String, to gateway: FileCitiesGateway) async throws {
        try await gateway.updateCities { cities in cities.append(City(name: name)) }.get()
    }

    func fileContents() throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    func failure<Value>(of response: Response<Value>) async -> (any Error)? {
        if case .failure(let error) = await response.getResult() { return error }
        return nil
    }

    // MARK: - Persistence

    @Test func withNoFile_theListIsEmpty_andNoFileIsCreatedByReading() async throws {
        #expect(try await makeGateway().loadCities().get() == [])
        #expect(directory.entries == [])
    }

    @Test func aSavedList_survivesARestart() async throws {
        try await add("Paris", to: makeGateway())
        try await add("Lima", to: makeGateway())

        let afterRestart = makeGateway()

        #expect(try await afterRestart.loadCities().get() == [City(name: "Paris"), City(name: "Lima")])
    }

    @Test func theFileIsVersionedJSON() async throws {
        try await add("Paris", to: makeGateway())

        #expect(try fileContents() == #"{"cities":[{"name":"Paris"}],"version":1}"#)
    }

    @Test func createsTheFilesDirectory_whenItIsMissing() async throws {
        let gateway = FileCitiesGateway(path: directory.path("nested/deeper/cities.json"))

        try await gateway.updateCities { cities in cities.append(City(name: "Oslo")) }.get()

        #expect(
            try await FileCitiesGateway(path: directory.path("nested/deeper/cities.json")).loadCities().get() == [
                City(name: "Oslo")
            ])
    }

    @Test func changesRunOneAtATime_soConcurrentChangesAreAllKept() async throws {
        let gateway = makeGateway()

        let changes = (1...20).map { number in
            gateway.updateCities { cities in cities.append(City(name: "City \(number)")) }
        }
        _ = try await Response.all(changes, on: .immediate).get()

        #expect(try await gateway.loadCities().get().count == 20)
    }

    // MARK: - Atomic writes

    @Test func writingLeavesNoTemporaryFileBehind() async throws {
        let gateway = makeGateway()
        try await add("Paris", to: gateway)
        try await add("Lima", to: gateway)

        #expect(directory.entries == ["cities.json"])
    }

    @Test func aChangeThatThrows_savesNothing() async throws {
        let gateway = makeGateway()
        try await add("Paris", to: gateway)
        let before = try fileContents()

        let change = gateway.updateCities { cities in
            cities.append(City(name: "Lima"))
            throw CitiesError.alreadyListed("Paris")
        }

        #expect(await failure(of: change) as? CitiesError == .alreadyListed("Paris"))
        #expect(try fileContents() == before)
    }

    // MARK: - A damaged file is never overwritten

    @Test(arguments: ["{\"cities\": [", "not json at all", "[\"Paris\"]", ""])
    func aDamagedFile_failsToLoad_sayingWhereItIs(contents: String) async throws {
        try contents.write(toFile: path, atomically: false, encoding: .utf8)

        let error = try #require(await failure(of: makeGateway().loadCities()) as? CitiesFileError)

        guard case .damaged(let damagedPath, _) = error else {
            Issue.record("expected .damaged, got \(error)")
            return
        }
        #expect(damagedPath == path)
        #expect(error.description.contains("It was left untouched, so nothing is lost"))
    }

    @Test func aDamagedFile_isNeverOverwritten_byAChange() async throws {
        let damaged = #"{"cities": [{"name": "Paris"}, {"name": "Li"#  // a truncated list
        try damaged.write(toFile: path, atomically: false, encoding: .utf8)

        let change = makeGateway().updateCities { cities in cities.append(City(name: "Rome")) }

        #expect(await failure(of: change) is CitiesFileError)
        #expect(try fileContents() == damaged)
        #expect(directory.entries == ["cities.json"])
    }

    @Test func anEmptyFile_isDamaged_notAnEmptyList() async throws {
        try "".write(toFile: path, atomically: false, encoding: .utf8)

        #expect(
            await failure(of: makeGateway().loadCities()) as? CitiesFileError
                == .damaged(path: path, reason: "the file is empty"))
    }

    @Test func aFileOfAnotherFormatVersion_isLeftAlone() async throws {
        let newer = #"{"cities":[],"version":2}"#
        try newer.write(toFile: path, atomically: false, encoding: .utf8)

        let change = makeGateway().updateCities { cities in cities.append(City(name: "Rome")) }

        #expect(
            await failure(of: change) as? CitiesFileError
                == .damaged(path: path, reason: "it has format version 2; this app reads version 1"))
        #expect(try fileContents() == newer)
    }
}
