import Foundation
import ResponseKitLoad
import Testing

struct LoadReportTests {
    static func report(warmUp: LoadDriver.Length = .requests(1_000)) -> LoadReport {
        var latencies = LatencyHistogram()
        for microseconds in 1_000...2_000 { latencies.record(.microseconds(microseconds)) }
        for _ in 0..<9 { latencies.record(.milliseconds(15)) }
        return LoadReport(
            mode: .closedLoop(inFlight: 64), length: .duration(.seconds(5)), warmUp: warmUp, requests: 1_012,
            completed: 985, failures: ["SignInError": 20, "CitiesError": 5], cancelled: 2, cancelledAtEnd: 2,
            elapsed: .milliseconds(5_002), latencies: latencies, executors: ["main": 1_000, "immediate": 10])
    }

    @Test func theTable_hasOneFigureALine_andTheLatenciesInARow() {
        #expect(
            Self.report().table == """
                mode         closed loop, 64 in flight
                length       5 s, after a warm-up of 1,000 requests
                requests     1,012
                completed    985
                failed       25 (SignInError 20, CitiesError 5)
                cancelled    2 (2 unanswered at the end)
                elapsed      5.00 s
                throughput   202 answers/s
                latency      min        p50        p90        p99        p99.9      max
                             1.00 ms    1.51 ms    1.91 ms    2.01 ms    15.0 ms    15.0 ms
                answers on   main 99 %, immediate 1 %
                """)
    }

    @Test func theTable_leavesOutAWarmUpOfNothing() {
        #expect(Self.report(warmUp: .requests(0)).table.contains("length       5 s\n"))
    }

    @Test func aRunWithoutAnswers_saysNoSamples_ratherThanZeroLatencies() {
        let empty = LoadReport(
            mode: .openLoop(perSecond: 10), length: .duration(.seconds(1)), warmUp: .requests(0), requests: 0,
            completed: 0, failures: [:], cancelled: 0, cancelledAtEnd: 0, elapsed: .zero,
            latencies: LatencyHistogram(), executors: [:])

        #expect(empty.table.contains("latency      no samples\n"))
        #expect(!empty.table.contains("p50"))
    }

    @Test func answersAndThroughput_leaveOutTheDriversOwnCancellations() {
        let report = Self.report()

        #expect(report.failed == 25)
        #expect(report.answers == 1_010)
        #expect(abs(report.throughput - 1_010 / 5.002) < 1e-9)
    }

    @Test func theJSON_readsBackAsTheSameReport() throws {
        let report = Self.report()

        let decoded = try JSONDecoder().decode(LoadReport.self, from: Data(report.json.utf8))

        #expect(decoded == report)
    }

    @Test func theJSON_namesTheFiguresAMachineWants() throws {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.report().json.utf8)) as? [String: Any])

        #expect(json["completed"] as? Int == 985)
        #expect(json["failures"] as? [String: Int] == ["SignInError": 20, "CitiesError": 5])
        #expect(json["elapsedNanoseconds"] as? Int == 5_002_000_000)
        #expect((json["throughputPerSecond"] as? Double).map { abs($0 - 1_010 / 5.002) < 1e-6 } == true)
        let latency = try #require(json["latencyNanoseconds"] as? [String: Int])
        #expect(Set(latency.keys) == ["min", "p50", "p90", "p99", "p99.9", "max", "mean"])
        #expect(latency["min"] == 1_000_000)
        #expect(latency["max"] == 15_000_000)
        #expect(json["mode"] as? [String: [String: Int]] == ["closedLoop": ["inFlight": 64]])
        #expect(json["length"] as? [String: Int] == ["nanoseconds": 5_000_000_000])
        #expect(json["executors"] as? [String: Int] == ["main": 1_000, "immediate": 10])
    }
}
