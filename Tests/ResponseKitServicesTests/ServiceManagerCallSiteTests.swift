import ResponseKit
import ResponseKitServices
import Testing

/// The manager's errors name the app's code: the call that raised them, and for a failed service
/// the site where the app registered it; never a file of the library.
@MainActor
struct ServiceManagerCallSiteTests {
    let bed = ServiceTestBed()

    // MARK: - Misuse

    @Test func registeringAfterStop_namesTheServiceAndTheRegistrationCall() async throws {
        try await bed.startAll()
        bed.manager.stop()

        let line = #line + 1
        let error = #expect(throws: ServiceManagerError.self) { try bed.service("late") }

        #expect(error?.serviceName == "late")
        #expect(error?.file == #fileID)
        #expect(error?.line == line)
        #expect(
            error?.description
                == "ServiceManagerError.alreadyStopped: late was not registered (at \(#fileID):\(line)): "
                + "the manager is stopping or stopped")
    }

    @Test func startingTwice_namesTheSecondCall() async throws {
        try await bed.startAll()

        let line = #line + 1
        let error = #expect(throws: ServiceManagerError.self) { try bed.manager.start() }

        #expect(
            error?.description == "ServiceManagerError.alreadyStarted: start() was called twice (at \(#fileID):\(line))"
        )
        #expect(error?.serviceName == nil)
    }

    @Test func startingAfterStop_namesTheCall() {
        bed.manager.stop()

        let line = #line + 1
        let error = #expect(throws: ServiceManagerError.self) { try bed.manager.start() }

        #expect(error == .alreadyStopped())
        #expect(error?.file == #fileID)
        #expect(error?.line == line)
    }

    @Test func sendingBeforeStart_namesTheCall() {
        let line = #line + 1
        let error = #expect(throws: ServiceManagerError.self) { try bed.manager.send(.didBecomeActive) }

        #expect(error == .notStarted())
        #expect(error?.file == #fileID)
        #expect(error?.line == line)
    }

    // MARK: - Failed services

    @Test func aFailedStart_namesTheServiceAndWhereItWasRegistered() async throws {
        let registrationLine = #line + 1
        try bed.service("a", start: .fail)
        try bed.service("b")

        let startLine = #line + 1
        let error = await outcome(of: try bed.manager.start()).failure as? ServiceManagerError

        #expect(
            error?.description
                == "ServiceManagerError.servicesFailed: a failed to start: scripted failure "
                + "(registered at \(#fileID):\(registrationLine))")
        #expect(error?.file == #fileID)
        #expect(error?.line == startLine)
        #expect(bed.reported.map(\.registrationSite) == ["\(#fileID):\(registrationLine)"])
    }

    @Test func aFailedEvent_namesTheServiceAndWhereItWasRegistered() async throws {
        let registrationLine = #line + 1
        try bed.service("a", event: .fail)
        try await bed.startAll()

        let sendLine = #line + 1
        let error = await outcome(of: try bed.manager.send(.didBecomeActive)).failure as? ServiceManagerError

        #expect(error?.failures.map(\.registrationSite) == ["\(#fileID):\(registrationLine)"])
        #expect(error?.description.hasSuffix("(registered at \(#fileID):\(registrationLine))") == true)
        #expect(error?.line == sendLine)
    }

    @Test func aFailedStop_namesTheServiceAndWhereItWasRegistered() async throws {
        try bed.service("a")
        let registrationLine = #line + 1
        try bed.service("b", stop: .fail)
        try await bed.startAll()

        let stopLine = #line + 1
        let error = await outcome(of: bed.manager.stop()).failure as? ServiceManagerError

        #expect(
            error?.description
                == "ServiceManagerError.servicesFailed: b failed to stop: scripted failure "
                + "(registered at \(#fileID):\(registrationLine))")
        #expect(error?.file == #fileID)
        #expect(error?.line == stopLine)
    }

    @Test func aSkippedService_namesWhereItWasRegistered() async throws {
        let slow = try bed.service("a", start: .hold)
        let registrationLine = #line + 1
        try bed.service("b")
        let starting = try bed.manager.start()
        _ = await outcome(of: slow.called("start"))

        bed.manager.stop()
        slow.held["start"]?.succeed()

        let error = await outcome(of: starting).failure as? ServiceManagerError
        #expect(error?.failures.map(\.isSkipped) == [true])
        #expect(error?.failures.map(\.registrationSite) == ["\(#fileID):\(registrationLine)"])
    }

}
