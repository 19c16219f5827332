import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitDemoCore
import ResponseKitServices
import ResponseKitTesting
import Testing

/// The analytics service on a real log file, in a fresh directory per test. Awaiting a response
/// suspends the main actor, so the service's main-queue callbacks run first.
@Suite(.responseChecks)
@MainActor
struct AnalyticsServiceTests {
    let directory = TemporaryDirectory()

    func makeService(logFile: String? = nil) -> AnalyticsService {
        AnalyticsService(logFile: logFile ?? directory.path("analytics.log"), now: { Date(timeIntervalSince1970: 0) })
    }

    /// The log's lines. Read with AtomicFile, not String(contentsOfFile:): on Linux,
    /// swift-foundation's readBytesFromFile leaks the buffer of a small file.
    func logLines() throws -> [String] {
        let data = try #require(try AtomicFile.read(directory.path("analytics.log")))
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func start_createsTheLogFile() async throws {
        try await makeService().start().get()

        #expect(try logLines() == [])
    }

    @Test func start_fails_whenTheLogCannotBeCreated() async throws {
        try "a file, not a directory".write(toFile: directory.path("blocker"), atomically: false, encoding: .utf8)

        let result = await makeService(logFile: directory.path("blocker/analytics.log")).start().getResult()

        #expect((try? result.get()) == nil)
    }

    @Test func trackedEvents_areWrittenAtWillTerminate_withTheLifecycleEvent() async throws {
        let service = makeService()
        try await service.start().get()

        service.track("command add")
        try await service.handle(.willTerminate).get()

        #expect(try logLines() == ["1970-01-01T00:00:00Z\tcommand add", "1970-01-01T00:00:00Z\twillTerminate"])
        #expect(service.buffer.isEmpty)
    }

    @Test func otherEvents_areKeptForTheNextFlush() async throws {
        let service = makeService()
        try await service.start().get()

        try await service.handle(.didBecomeActive).get()

        #expect(try logLines() == [])
        #expect(service.buffer == ["1970-01-01T00:00:00Z\tdidBecomeActive"])
        try await service.stop().get()
        #expect(try logLines() == ["1970-01-01T00:00:00Z\tdidBecomeActive"])
    }

    @Test func aFailedFlush_keepsTheEvents_forTheNextOne() async throws {
        try "a file, not a directory".write(toFile: directory.path("blocker"), atomically: false, encoding: .utf8)
        let service = makeService(logFile: directory.path("blocker/analytics.log"))
        service.track("command add")

        let result = await service.flush().getResult()

        #expect((try? result.get()) == nil)
        #expect(service.buffer == ["1970-01-01T00:00:00Z\tcommand add"])
    }
}
