import Foundation
import ResponseKit
import ResponseKitLoad
import ResponseKitTesting
import Testing

/// Weighted scenarios, each with its own report, in virtual time.
@Suite(.responseChecks)
struct LoadScenarioTests {
    let scheduler = ManualScheduler()

    /// "list" answers in 1 ms, "add" in 5 ms; each records the numbers of the requests it made.
    func scenarios(_ server: FakeServer, made: Recorder<(String, Int)>) -> [LoadScenario] {
        [
            LoadScenario(name: "list", weight: 8) { index in
                made.record(("list", index))
                return server.handle(index)
            },
            LoadScenario(name: "add", weight: 2) { index in
                made.record(("add", index))
                return server.handle(-index - 1)
            },
        ]
    }

    func run(_ driver: LoadDriver, _ scenarios: [LoadScenario]) throws -> LoadScenarioReport {
        let report = driver.run(on: .immediate, scenarios: scenarios)
        scheduler.advance(by: .seconds(100_000))
        #expect(report.isDone)
        return try report.value
    }

    @Test func eachScenario_makesItsShareOfTheRequests_inAWeightedRoundRobin_withItsOwnReport() throws {
        let made = Recorder<(String, Int)>()
        let server = FakeServer(scheduler: scheduler) { $0 >= 0 ? .milliseconds(1) : .milliseconds(5) }

        let report = try run(
            server.driver(.openLoop(perSecond: 1_000), for: .duration(.seconds(1))), scenarios(server, made: made))

        // Weights 8 and 2: list list add list list list list add list list, over and over.
        let adds = made.values.filter { $0.0 == "add" }.map(\.1)
        #expect(adds == (0..<1_000).filter { [2, 7].contains($0 % 10) })
        #expect(report.scenarios.map(\.name) == ["list", "add"])
        let list = try #require(report["list"])
        let add = try #require(report["add"])
        #expect(list.requests == 800)
        #expect(list.completed == 800)
        #expect(list.latencies.maximum == .milliseconds(1))
        #expect(add.requests == 200)
        #expect(add.completed == 200)
        #expect(add.latencies.minimum == .milliseconds(5))
        #expect(add.latencies.maximum == .milliseconds(5))
        #expect(report.total.requests == 1_000)
        #expect(report.total.latencies.count == 1_000)
        var merged = list.latencies
        merged.merge(add.latencies)
        #expect(merged == report.total.latencies)
        // Each scenario's intervals hold its own answers.
        #expect(list.intervals.reduce(0) { $0 + $1.histogram.count } == 800)
        #expect(add.intervals.reduce(0) { $0 + $1.histogram.count } == 200)
        #expect(report.table.contains("list\n"))
        #expect(report.table.contains("add\n"))
        #expect(report.table.contains("total\n"))
    }

    @Test func theWarmUp_isNotCountedInAnyScenario() throws {
        let made = Recorder<(String, Int)>()
        let server = FakeServer(scheduler: scheduler) { $0 >= 0 ? .milliseconds(1) : .milliseconds(5) }

        let report = try run(
            server.driver(.closedLoop(inFlight: 3), for: .requests(95), warmUp: .requests(5)),
            scenarios(server, made: made))

        // Requests 5 to 99 are measured: "add" makes those ending in 2 or 7 from 7 to 97 (19).
        let measuredAdds = (5..<100).filter { [2, 7].contains($0 % 10) }
        #expect(measuredAdds.count == 19)
        #expect(report["add"]?.requests == 19)
        #expect(report["add"]?.latencies.count == 19)
        #expect(report["list"]?.requests == 95 - measuredAdds.count)
        #expect(report.total.requests == 95)
        #expect(made.values.count == 100)
    }

    @Test func scenariosThatCannotRun_sayWhy() {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let driver = server.driver(.closedLoop(inFlight: 1), for: .requests(10))
        let cases: [([LoadScenario], String)] = [
            ([], "LoadDriver: run(scenarios:) needs at least one scenario"),
            (
                [LoadScenario(name: "a", weight: 0) { server.handle($0) }],
                #"LoadDriver: scenario "a" has weight 0, below 1"#
            ),
            (
                [LoadScenario(name: "a") { server.handle($0) }, LoadScenario(name: "a") { server.handle($0) }],
                #"LoadDriver: scenarios ["a", "a"] need different names"#
            ),
        ]
        for (scenarios, message) in cases {
            let report = driver.run(on: .immediate, scenarios: scenarios)
            #expect(report.error.map { "\($0)" } == message)
        }
    }
}
