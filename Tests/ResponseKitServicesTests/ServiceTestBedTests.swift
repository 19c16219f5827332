import ResponseKit
import ResponseKitServices
import Testing

/// The test bed's teardown: what a test leaves hanging must not keep its manager alive, or the
/// leak checker in CI reports every such test.
@MainActor
struct ServiceTestBedTests {
    @Test func aBedGoingAway_letsItsManagerGiveUpOnWhatTheTestLeftHanging_andBeFreed() async throws {
        weak var manager: ServiceManager?
        weak var service: ScriptedService?
        let starting: Response<Void>
        do {
            let bed = ServiceTestBed()
            service = try bed.service("a", start: .hold)
            try bed.service("b", start: .hold)  // started once the manager gives up on a: hangs too
            starting = try bed.manager.start()
            manager = bed.manager
        }

        // Without the teardown nothing finishes the start: the wait fails after 30 seconds.
        #expect(await outcome(of: starting).failedServiceNames == ["a", "b"])
        #expect(manager == nil, "a hanging service kept its manager alive")
        #expect(service == nil, "a hanging service outlived its test")
    }
}
