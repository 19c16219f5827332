import CitiesCore
import ExampleSupport
import ResponseKit
import ResponseKitTesting
import Testing

/// The composition root and its commands, end to end on an in-memory gateway. Awaiting a
/// command's response suspends the main actor, so the presenter's main-queue callbacks run.
@Suite(.responseChecks)
@MainActor
struct CitiesAppTests {
    let gateway = InMemoryCitiesGateway(cities: [City(name: "Paris")])
    let printed = Recorder<String>()
    let app: CitiesApp

    init() {
        app = CitiesApp(
            gateway: gateway, input: .scripted([]), output: ConsoleOutput { [printed] in printed.record($0) },
            isInteractive: false)
    }

    func run(_ line: String) async throws -> String {
        let before = printed.count
        _ = try await app.handle(line).get()
        return printed.values.dropFirst(before).joined()
    }

    @Test func add_printsWhatWasAdded_andTheList() async throws {
        #expect(try await run("add New York") == "Added New York.\nYour cities (2)\n  1. Paris\n  2. New York\n")
    }

    @Test func delete_printsWhatWasDeleted_andTheList() async throws {
        #expect(try await run("delete paris") == "Deleted Paris.\nNo cities yet: add one, such as: add Paris\n")
    }

    @Test func list_printsTheList() async throws {
        #expect(try await run("list") == "Your cities (1)\n  1. Paris\n")
    }

    @Test func addWithNoName_saysHow_andKeepsTheList() async throws {
        #expect(try await run("add") == "error: Give the city's name, such as: add Paris\n")
        #expect(gateway.storedCities == [City(name: "Paris")])
    }

    @Test func anUnknownCommand_isNamed_andKeepsTheList() async throws {
        #expect(try await run("remove Paris") == "Unknown command 'remove'. Type 'help' for the commands.\n")
        #expect(gateway.storedCities == [City(name: "Paris")])
    }

    @Test func quit_endsTheLoop() async throws {
        #expect(try await app.handle("quit").get() == .quit)
    }
}
