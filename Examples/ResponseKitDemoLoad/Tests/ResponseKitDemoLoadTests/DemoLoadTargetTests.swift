import CitiesCore
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitDemoLoadCore
import ResponseKitLoad
import ResponseKitTesting
import SignInCore
import Testing

/// The demo's interactors under the load driver, for real: their answers come back on the main
/// queue, which these main-actor tests leave free while they await the report. The fake backend
/// answers at once (no latency), so a run takes a few milliseconds of file writes.
@MainActor
@Suite(.responseChecks)
struct DemoLoadTargetTests {
    let directory = TemporaryDirectory()

    func load<Value>(
        _ requests: Int, inFlight: Int = 4, _ request: @escaping @Sendable (Int) -> Response<Value>
    ) async throws -> LoadReport {
        try await LoadDriver(.closedLoop(inFlight: inFlight), for: .requests(requests), progress: .silent)
            .run(request)
            .get()
    }

    @Test func signIn_answersEveryRequest_onTheMainQueue_andKeepsTheToken() async throws {
        let report = try await load(20, DemoLoadTarget.signIn(dataDirectory: directory.path, latency: .zero))

        #expect(report.completed == 20)
        #expect(report.failures.isEmpty)
        #expect(report.executors == ["main": 20])
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path("session/token"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func addCity_addsCityN_forRequestN() async throws {
        let report = try await load(30, DemoLoadTarget.addCity(dataDirectory: directory.path))

        #expect(report.completed == 30)
        let cities = try await FileCitiesGateway(path: directory.path("cities.json")).loadCities().get()
        #expect(Set(cities.map(\.name)) == Set((0..<30).map { "City \($0)" }))
    }

    @Test func addCity_again_failsEveryRequest_countedByErrorType() async throws {
        _ = try await load(10, DemoLoadTarget.addCity(dataDirectory: directory.path))

        let again = try await load(10, DemoLoadTarget.addCity(dataDirectory: directory.path))

        #expect(again.completed == 0)
        #expect(again.failures == ["CitiesError": 10])
        #expect(again.latencies.count == 10)
    }

    @Test(arguments: [("main", ResponseExecutor.main), ("immediate", .immediate)])
    func echo_answersOnTheExecutorAskedFor(name: String, executor: ResponseExecutor) async throws {
        let report = try await load(1_000, inFlight: 16, DemoLoadTarget.echo(on: executor))

        #expect(report.completed == 1_000)
        #expect(report.executors == [name: 1_000])
    }
}
