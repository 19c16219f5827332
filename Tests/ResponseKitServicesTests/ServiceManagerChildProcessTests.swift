import Dispatch
import ResponseKit
import ResponseKitServices
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The manager ends the child processes a service owns and forgot, once the service has answered
/// its stop or missed the limit, and before the services registered earlier stop. Real children
/// (`/bin/sleep 300`); waits on their termination, never on time.
@MainActor
@Suite(.serialized)
struct ServiceManagerChildProcessTests {
    @Test func aChildTheServiceForgets_isEndedWithSIGTERM_beforeTheEarlierServiceStops() async throws {
        let journal = Journal()
        let manager = ServiceManager()
        let earlier = WitnessService(journal: journal)
        let spawner = SpawnerService(stop: .succeed)
        try manager.register(earlier)
        try manager.register(spawner)
        #expect(await outcome(of: try manager.start()).isSuccess)
        let child = try #require(spawner.child)
        earlier.child = child

        #expect(await outcome(of: manager.stop()).isSuccess)

        #expect(journal.lines == ["stop earlier: the child has exited"])
        #expect(try await outcome(of: child.termination).get() == .killed(by: SIGTERM))
    }

    @Test func aChildOfAServiceWhoseStopTimesOut_isEndedAfterTheTimeout() async throws {
        let timer = ManualTimer()
        let manager = ServiceManager(timeouts: ServiceTimeouts(stop: .seconds(1)), timer: timer) { _ in }
        let spawner = SpawnerService(stop: .hang)
        try manager.register(spawner)
        #expect(await outcome(of: try manager.start()).isSuccess)
        let child = try #require(spawner.child)

        let stopping = manager.stop()
        #expect(!child.termination.isDone)
        #expect(timer.fireAll() == 1)

        #expect(await outcome(of: stopping).failedServiceNames == ["spawner"])
        #expect(try await outcome(of: child.termination).get() == .killed(by: SIGTERM))
    }

    @Test func aChildOwnedByNoService_isLeftRunningByTheManager() async throws {
        let manager = ServiceManager()
        let spawner = SpawnerService(stop: .succeed, owns: false)
        try manager.register(spawner)
        #expect(await outcome(of: try manager.start()).isSuccess)
        let child = try #require(spawner.child)
        defer { child.end() }

        #expect(await outcome(of: manager.stop()).isSuccess)

        #expect(throws: ResponseError.timedOut) { try child.termination.wait(timeout: .zero) }
    }
}

/// Starts `/bin/sleep 300` from a Dispatch worker, owned by itself unless told otherwise, and
/// forgets it in its stop, which succeeds or never answers.
@MainActor
private final class SpawnerService: Service {
    enum Stop { case succeed, hang }

    let name = "spawner"
    private let stopAnswer: Stop
    private let owns: Bool
    private(set) var child: ChildProcess?
    /// Kept, never resolved, so that a hanging stop stays pending.
    private var hangingStop: Resolver<Void>?

    init(stop: Stop, owns: Bool = true) {
        self.stopAnswer = stop
        self.owns = owns
    }

    func start() -> Response<Void> {
        let owner: SpawnerService? = owns ? self : nil
        let (started, resolver) = Response<Void>.pending()
        Response<ChildProcess>(on: .global()) {
            try ChildProcess.spawn("/bin/sleep", arguments: ["300"], ownedBy: owner)
        }
        .mainActor
        .onCompletion { child in
            self.child = child
            resolver.succeed()
        }
        .onFailure { error in resolver.fail(error) }
        return started
    }

    func stop() -> Response<Void> {
        switch stopAnswer {
        case .succeed:
            return .succeeded()
        case .hang:
            let (response, resolver) = Response<Void>.pending()
            hangingStop = resolver
            return response
        }
    }
}

/// Registered before the spawner, so stopped after it: says whether the spawner's child had
/// exited by then.
@MainActor
private final class WitnessService: Service {
    let name = "earlier"
    private let journal: Journal
    var child: ChildProcess?

    init(journal: Journal) {
        self.journal = journal
    }

    func start() -> Response<Void> { .succeeded() }

    func stop() -> Response<Void> {
        let exited = child?.termination.isDone == true
        journal.record("stop earlier: the child \(exited ? "has exited" : "still runs")")
        return .succeeded()
    }
}
