import ResponseKit
import ResponseKitDemoCore
import ResponseKitServices
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
@MainActor
struct ConsoleServiceTests {
    @Test func startsTheConsoleOnTheFirstDidBecomeActive_only() throws {
        var starts = 0
        let service = ConsoleService(onActive: { starts += 1 }, onStop: { .succeeded((), on: .immediate) })

        #expect(service.start().isSuccessful)
        _ = service.handle(.didFinishLaunching)
        #expect(starts == 0)
        _ = service.handle(.didBecomeActive)
        _ = service.handle(.didBecomeActive)

        #expect(starts == 1)
    }

    @Test func stoppingTheService_stopsTheConsole() {
        var stops = 0
        let service = ConsoleService(
            onActive: {},
            onStop: {
                stops += 1
                return .succeeded((), on: .immediate)
            })

        #expect(service.stop().isSuccessful)
        #expect(stops == 1)
    }

    @Test func theServiceStops_onlyOnceTheConsolesCommandInFlightHasFinished() {
        let (commandShown, showCommand) = Response<Void>.pending(on: .immediate)
        let service = ConsoleService(onActive: {}, onStop: { commandShown })

        let stopped = service.stop()

        #expect(!stopped.isDone)
        showCommand.succeed()
        #expect(stopped.isSuccessful)
    }
}
