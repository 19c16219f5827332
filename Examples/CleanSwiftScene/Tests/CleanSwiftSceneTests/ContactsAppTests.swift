import CleanSwiftSceneCore
import ExampleSupport
import ResponseKit
import ResponseKitTesting
import Testing

/// The whole VIP loop at the command line, on an in-memory store whose latency is moved by hand.
@Suite(.responseChecks)
@MainActor
struct ContactsAppTests {
    let scheduler = ManualScheduler()
    let printed = Recorder<String>()
    let app: ContactsApp

    init() {
        let store = InMemoryContactsStore(
            contacts: [
                Contact(id: 1, firstName: "ada", lastName: "LOVELACE", phone: "2125550199"),
                Contact(id: 2, firstName: "GRACE", lastName: "hopper", phone: "(212) 555 0142"),
            ],
            latency: .milliseconds(200),
            scheduler: scheduler
        )
        app = ContactsApp(
            store: store, input: .scripted([]), output: ConsoleOutput { [printed] in printed.record($0) },
            isInteractive: false)
    }

    func printedDuring(_ body: () -> Response<some Sendable>) async throws -> String {
        let before = printed.count
        let response = body()
        scheduler.advance(by: .milliseconds(200))
        _ = try await response.get()
        return printed.values.dropFirst(before).joined()
    }

    @Test func startsOnTheList_sortedAndFormatted() async throws {
        let shown = try await printedDuring { app.start() }

        #expect(shown == "Contacts\n  1. Grace Hopper        (212) 555-0142\n  2. Ada Lovelace        (212) 555-0199\n")
    }

    @Test func show_opensTheContact_andBack_returnsToTheList() async throws {
        _ = try await printedDuring { app.start() }

        #expect(try await printedDuring { app.handle("show 2") } == "[AL] Ada Lovelace\n     phone: (212) 555-0199\n")
        #expect(app.navigator.stack.count == 2)

        #expect(try await printedDuring { app.handle("back") }.hasPrefix("Contacts\n"))
        #expect(app.navigator.stack.count == 1)
    }

    @Test func aRowThatDoesNotExist_isRefused_andNothingOpens() async throws {
        _ = try await printedDuring { app.start() }

        #expect(try await printedDuring { app.handle("show 3") } == "error: There is no contact 3: choose 1 to 2.\n")
        #expect(app.navigator.stack.count == 1)
    }

    @Test func anUnknownCommand_isNamed() async throws {
        _ = try await printedDuring { app.start() }

        #expect(
            try await printedDuring { app.handle("call 1") }
                == "Unknown command 'call'. Type 'help' for the commands.\n")
    }
}
