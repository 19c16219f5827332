import ResponseKit
import ResponseKitDemoCore
import ResponseKitServices
import Testing

@MainActor
struct ConsoleServiceTests {
    @Test func startsTheConsoleOnTheFirstDidBecomeActive_only() throws {
        var starts = 0
        let service = ConsoleService(onActive: { starts += 1 }, onStop: {})

        #expect(service.start().isSuccessful)
        _ = service.handle(.didFinishLaunching)
        #expect(starts == 0)
        _ = service.handle(.didBecomeActive)
        _ = service.handle(.didBecomeActive)

        #expect(starts == 1)
    }

    @Test func stoppingTheService_stopsTheConsole() {
        var stops = 0
        let service = ConsoleService(onActive: {}, onStop: { stops += 1 })

        #expect(service.stop().isSuccessful)
        #expect(stops == 1)
    }
}
