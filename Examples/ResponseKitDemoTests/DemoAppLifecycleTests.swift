import AuthenticationCore
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitDemoCore
import ResponseKitTesting
import Testing

/// The demo's start and shutdown around its data directory: what a crash left is cleaned up, a
/// directory that cannot be used stops the app at once, and a shutdown lets the command in
/// flight finish its save. The services run on the app's real `ServiceManager`; the sign-in's
/// backend answers on a `ManualScheduler`, so the command stays in flight until the test
/// advances it.
@Suite(.responseChecks)
@MainActor
struct DemoAppLifecycleTests {
    let directory = TemporaryDirectory()
    let printed = Recorder<String>()
    let scheduler = ManualScheduler()

    func makeApp(in dataDirectory: String? = nil, commands: [String] = [], onEcho: Resolver<Void>? = nil) throws
        -> DemoApp
    {
        try DemoApp(
            dataDirectory: dataDirectory ?? directory.path,
            input: .scripted(commands),
            output: ConsoleOutput { [printed] text in
                printed.record(text)
                if text.hasPrefix("> ") { onEcho?.succeed() }  // the loop echoes, then hands the command over
            },
            isInteractive: false,
            scheduler: scheduler
        )
    }

    // MARK: - Shutdown

    @Test func aShutdownDuringASave_letsTheCommandFinish_beforeTheServicesStop() async throws {
        let (handedOver, handOver) = Response<Void>.pending(on: .immediate)
        let app = try makeApp(commands: ["signin ada secret"], onEcho: handOver)
        try await app.services.start().get()
        _ = try app.services.send(.didBecomeActive)
        try await handedOver.get()  // the sign-in waits for the backend, which waits for the scheduler

        let stopping = app.services.stop()
        #expect(!printed.values.joined().contains("Bye."), "the console stopped with a command in flight")
        #expect(!app.stopConsole().isDone, "the console's stop does not wait for the command in flight")
        scheduler.advance(by: .seconds(1))  // the backend answers; the token file is written
        try await stopping.get()

        let text = printed.values.joined()
        let signedIn = try #require(text.range(of: "Signed in as Ada Lovelace"))
        let bye = try #require(text.range(of: "Bye."))
        #expect(signedIn.upperBound <= bye.lowerBound, "the goodbye came before the command in flight finished")
        #expect(try FileTokenStore(path: directory.path("session/token")).load() != nil)
        #expect(directory.entries.filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    // MARK: - Served

    @Test func served_theAppHasNoCommandLine_andItsServicesRunUntilStopped() async throws {
        let app = try DemoApp(
            dataDirectory: directory.path, input: nil, output: ConsoleOutput { [printed] in printed.record($0) },
            isInteractive: false, scheduler: scheduler)

        #expect(app.services.serviceNames == ["analytics"])
        try await app.services.start().get()
        _ = try app.services.send(.didBecomeActive)
        _ = try app.services.send(.didReceiveReloadRequest)
        try await app.services.stop().get()

        #expect(printed.values.isEmpty, "a served app printed \(printed.values)")
        let log = try String(contentsOfFile: directory.path("analytics.log"), encoding: .utf8)
        #expect(log.contains("didReceiveReloadRequest"))
    }

    // MARK: - Start

    @Test func starting_removesTheTemporaryFilesThatSavesCutShortByACrashLeft() throws {
        let id = UUID().uuidString
        try AtomicFile.write(Data("[".utf8), to: directory.path(".cities.json.\(id).tmp"))
        try AtomicFile.write(Data("tk".utf8), to: directory.path("session/.token.\(id).tmp"))
        try AtomicFile.write(Data("keep".utf8), to: directory.path("notes.tmp"))

        _ = try makeApp()

        #expect(directory.entries == ["notes.tmp", "session"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("session")).isEmpty)
    }

    @Test func aDataDirectoryThatCannotBeCreated_stopsTheAppAtStart_namingItAndTheReason() throws {
        try AtomicFile.write(Data("x".utf8), to: directory.path("plain"))
        let dataDirectory = directory.path("plain/demo")

        #expect {
            _ = try makeApp(in: dataDirectory)
        } throws: { error in
            guard let unusable = error as? UnusableDataDirectory else { return false }
            return unusable.directory == dataDirectory
                && "\(unusable)".hasPrefix(
                    "cannot keep data in \(dataDirectory) (mkdir \(directory.path("plain")): Not a directory)")
        }
        #expect(printed.values.isEmpty)
        #expect(UnusableDataDirectory.exitStatus == 73)
    }
}
