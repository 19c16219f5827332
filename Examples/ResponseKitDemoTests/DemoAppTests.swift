import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitDemoCore
import ResponseKitTesting
import Testing

/// The demo's composition root, end to end: files in a fresh directory per test, the fake
/// backend with no latency. Awaiting a command's response suspends the main actor, so the
/// presenters' main-queue callbacks run; it returns once the outcome is printed.
@Suite(.responseChecks)
@MainActor
struct DemoAppTests {
    let directory = TemporaryDirectory()
    let printed = Recorder<String>()

    func makeApp() throws -> DemoApp {
        try DemoApp(
            dataDirectory: directory.path,
            input: .scripted([]),
            output: ConsoleOutput { [printed] in printed.record($0) },
            isInteractive: false,
            latency: .none
        )
    }

    func run(_ line: String, in app: DemoApp) async throws -> String {
        let before = printed.count
        _ = try await app.handle(line).get()
        return printed.values.dropFirst(before).joined()
    }

    @Test func startingTheConsole_greets_andShowsWhoIsSignedIn() async throws {
        let app = try makeApp()

        try await app.startConsole().get()

        let text = printed.values.joined()
        #expect(text.hasPrefix("ResponseKit demo: sign in, then keep a list of cities."))
        #expect(text.hasSuffix("Signed out   [sign in]\n"))
    }

    @Test func theApp_isReleasedWhileItsCommandLineStillReads_withNothingLeftToCallIt() async throws {
        var app: DemoApp? = try makeApp()
        weak let released = app
        try await app?.startConsole().get()

        app = nil

        #expect(released == nil, "the command loop and the services must hold the app weakly")
    }

    @Test func citiesNeedASignIn() async throws {
        let app = try makeApp()

        #expect(
            try await run("add Paris", in: app)
                == "Sign in first (such as: signin ada secret) to see and edit your cities.\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path("cities.json")))
    }

    @Test func afterSigningIn_citiesCanBeAddedListedAndDeleted() async throws {
        let app = try makeApp()

        #expect(try await run("signin ada secret", in: app) == "Signed in as Ada Lovelace   [sign out]\n")
        #expect(try await run("add Paris", in: app) == "Added Paris.\nYour cities (1)\n  1. Paris\n")
        #expect(try await run("add Lima", in: app).hasSuffix("  1. Paris\n  2. Lima\n"))
        #expect(try await run("delete paris", in: app) == "Deleted Paris.\nYour cities (1)\n  1. Lima\n")
    }

    @Test func theSessionAndTheCities_surviveARestart() async throws {
        let first = try makeApp()
        _ = try await run("signin ada secret", in: first)
        _ = try await run("add Oslo", in: first)

        let second = try makeApp()
        try await second.startConsole().get()

        #expect(printed.values.last == "Signed in as Ada Lovelace   [sign out]\n")
        #expect(try await run("list", in: second) == "Your cities (1)\n  1. Oslo\n")
    }

    @Test func aDamagedCitiesFile_isReported_andLeftAsItWas() async throws {
        let damaged = "{\"cities\": [{\"name\": \"Par"
        try damaged.write(toFile: directory.path("cities.json"), atomically: false, encoding: .utf8)
        let app = try makeApp()
        _ = try await run("signin ada secret", in: app)

        let shown = try await run("add Rome", in: app)

        #expect(shown.hasPrefix("error: The cities file \(directory.path("cities.json")) is damaged"))
        #expect(try String(contentsOfFile: directory.path("cities.json"), encoding: .utf8) == damaged)
    }

    @Test func analytics_recordsCommandNames_neverWhatWasTyped() async throws {
        let app = try makeApp()

        _ = try await run("signin ada secret", in: app)
        _ = try await run("add Paris", in: app)
        _ = try await run("nonsense typed here", in: app)

        let events = app.analytics.buffer.map { $0.split(separator: "\t").last.map(String.init) ?? "" }
        #expect(events.contains("command signin"))
        #expect(events.contains("command add"))
        #expect(!app.analytics.buffer.joined().contains("secret"))
        #expect(!app.analytics.buffer.joined().contains("Paris"))
        #expect(!app.analytics.buffer.joined().contains("nonsense"))
    }

    @Test func anUnknownCommand_isNamed() async throws {
        #expect(
            try await run("fly away", in: try makeApp()) == "Unknown command 'fly'. Type 'help' for the commands.\n")
    }

    @Test func quit_asksForAShutdown_andStoppingTheConsoleDoesNotAskAgain() async throws {
        let app = try makeApp()
        var quits = 0
        app.onQuit = { quits += 1 }

        #expect(try await app.handle("quit").get() == .quit)
        app.stopConsole()

        #expect(quits == 0, "handle() alone does not run the loop; the loop's end calls onQuit")
        #expect(printed.values.last == "Bye. Your cities and session stay in \(directory.path).\n")
    }
}
