import ResponseKit
import ResponseKitServices
import Testing

/// The manager reports every service failure itself (through its failure handler), so a response
/// it returned and the caller dropped, as the README's `try services.register(...)` does, is not
/// reported a second time as an unobserved failure, pointing inside the library, when released.
@MainActor
struct ServiceManagerReportedFailureTests {
    init() {
        startRecordingDiagnostics()
    }

    @Test func aDroppedRegistration_whoseServiceFailedToStart_isNotReportedAgainWhenReleased() async throws {
        let reported = try await runThenRelease(failures: 1) { manager, journal in
            try manager.register(ScriptedService(name: "sync", journal: journal, start: .fail))
            try manager.start()
        }

        #expect(reported == ["sync failed to start: scripted failure"])
        #expect(unobservedFailuresOfTheManager().isEmpty)
    }

    @Test func aDroppedEventResponse_thatFailed_isNotReportedAgainWhenReleased() async throws {
        let reported = try await runThenRelease(failures: 1) { manager, journal in
            try manager.register(ScriptedService(name: "sync", journal: journal, event: .fail))
            try manager.start()
            try manager.send(.didEnterBackground)
        }

        #expect(reported.count == 1)
        #expect(unobservedFailuresOfTheManager().isEmpty)
    }

    @Test func aDroppedStopResponse_thatFailed_isNotReportedAgainWhenReleased() async throws {
        let reported = try await runThenRelease(failures: 1) { manager, journal in
            try manager.register(ScriptedService(name: "sync", journal: journal, stop: .fail))
            try manager.start()
            manager.stop()
        }

        #expect(reported.count == 1)
        #expect(unobservedFailuresOfTheManager().isEmpty)
    }

    // MARK: - Support

    /// Runs `body` on a new manager, waits until its failure handler has been told `count`
    /// failures (the manager finishes the step's response in the same main-actor turn), then
    /// releases the manager and with it every response it returned.
    ///
    /// - Returns: what the failure handler was told.
    private func runThenRelease(
        failures count: Int,
        _ body: (ServiceManager, Journal) throws -> Void
    ) async throws -> [String] {
        let (reported, resolver) = Response<[String]>.pending(on: .immediate)
        var descriptions: [String] = []
        var manager: ServiceManager? = ServiceManager(timeouts: ServiceTestBed.timeouts, timer: ManualTimer()) {
            descriptions.append($0.description)
            if descriptions.count == count { resolver.succeed(descriptions) }
        }
        try body(manager!, Journal())
        let result = await outcome(of: reported)
        manager = nil
        return try result.get()
    }

    /// Unobserved failures of responses created inside the services library.
    private func unobservedFailuresOfTheManager() -> [ResponseDiagnostic] {
        diagnostics(.unobservedFailure, aboutResponsesCreatedUnder: "ResponseKitServices/")
    }
}
