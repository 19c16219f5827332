import ResponseKit
import ResponseKitServices
import Testing

struct ServiceFailureTests {
    @Test func describesAFailureWithTheServiceTheStepAndTheError() {
        let failure = ServiceFailure(serviceName: "sync", step: .event(.willTerminate), error: TestError())
        #expect(failure.description == "sync failed to handle willTerminate: scripted failure")
        #expect(!failure.isTimeout)
        #expect(!failure.isSkipped)
    }

    @Test func describesATimeoutWithTheLimit() {
        let failure = ServiceFailure(
            serviceName: "analytics", step: .stop, error: ResponseError.deadlineExceeded, timeout: .milliseconds(250)
        )
        #expect(failure.isTimeout)
        #expect(failure.description == "analytics did not stop within 0.25 seconds")
    }

    @Test func aStartFailureMadeWithCancellationError_isSkipped_asTheManagerMakesOne() {
        let failure = ServiceFailure(serviceName: "sync", step: .start, error: CancellationError())
        #expect(failure.isSkipped)
        #expect(failure.description == "sync was not started: the manager began stopping first")
        #expect(!ServiceFailure(serviceName: "sync", step: .stop, error: CancellationError()).isSkipped)
    }

    @Test func aFailureMadeWithTheWaitsTimedOut_stillCountsAsATimeout() {
        let failure = ServiceFailure(
            serviceName: "a", step: .start, error: ResponseError.timedOut, timeout: .seconds(1))
        #expect(failure.isTimeout)
    }
}

struct ServiceManagerErrorTests {
    @Test func errorsOfTheSameKindAreEqual_whateverTheirFailuresAndSites() {
        let failure = ServiceFailure(serviceName: "a", step: .start, error: TestError())
        #expect(ServiceManagerError.servicesFailed([failure]) == .servicesFailed())
        #expect(ServiceManagerError.alreadyStarted(file: "x", line: 1) == .alreadyStarted())
        #expect(ServiceManagerError.alreadyStarted() != .alreadyStopped())
        #expect(ServiceManagerError.notStarted() != .servicesFailed())
    }

    @Test func servicesFailed_namesEachFailedService() {
        let error = ServiceManagerError.servicesFailed([
            ServiceFailure(serviceName: "a", step: .start, error: TestError()),
            ServiceFailure(serviceName: "b", step: .stop, error: ResponseError.deadlineExceeded, timeout: .seconds(1)),
        ])
        #expect(error.failedServiceNames == ["a", "b"])
        #expect(
            error.description == """
                ServiceManagerError.servicesFailed: a failed to start: scripted failure; \
                b did not stop within 1.0 seconds
                """)
    }

    @Test func misuseErrors_sayWhereTheyWereRaised() {
        let error = ServiceManagerError.alreadyStarted(file: "App/main.swift", line: 12)
        #expect(error.description.contains("App/main.swift:12"))
        #expect(error.failures.isEmpty)
    }
}
