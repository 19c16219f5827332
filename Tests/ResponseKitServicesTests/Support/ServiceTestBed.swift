import ResponseKit
import ResponseKitServices
import Testing

/// A manager with a manual timer, a journal shared by its scripted services, and the failures it
/// reported: what every manager test arranges.
@MainActor
final class ServiceTestBed {
    /// Distinct limits, so a test can tell which one the manager asked the timer for.
    static let timeouts = ServiceTimeouts(
        start: .seconds(3), event: .seconds(2), reload: .seconds(4), stop: .seconds(1))

    let timer = ManualTimer()
    let journal = Journal()
    /// What the failure handler was told, in order.
    private(set) var reported: [ServiceFailure] = []
    /// The responses `register(_:)` returned, by service name.
    private(set) var registrations: [String: Response<Void>] = [:]
    private(set) var manager: ServiceManager!

    init() {
        // Weak: the manager may report a failure after the test, while giving up on what the test
        // left hanging (see `deinit`).
        manager = ServiceManager(timeouts: Self.timeouts, timer: timer) { [weak self] failure in
            self?.reported.append(failure)
        }
    }

    /// Lets the manager give up on whatever the test left hanging, so that no service, response or
    /// manager outlives the test in a cycle (see ``ManualTimer/runOutForever()``).
    deinit {
        timer.runOutForever()
    }

    /// Descriptions of the reported failures, in order.
    var reportedDescriptions: [String] {
        reported.map(\.description)
    }

    /// Makes a scripted service and registers it, as if from the test's line: errors name that site.
    @discardableResult
    func service(
        _ name: String,
        start: Answer = .succeed,
        event: Answer = .succeed,
        stop: Answer = .succeed,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws -> ScriptedService {
        let service = ScriptedService(name: name, journal: journal, start: start, event: event, stop: stop)
        registrations[name] = try manager.register(service, file: file, line: line)
        return service
    }

    /// Starts the manager and waits until every service has answered.
    func startAll() async throws {
        _ = await outcome(of: try manager.start())
    }
}
