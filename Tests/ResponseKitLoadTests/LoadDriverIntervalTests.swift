import Foundation
import ResponseKit
import ResponseKitLoad
import ResponseKitTesting
import Testing

/// Latency and throughput over time: each answer in the interval it came in, in virtual time.
@Suite(.responseChecks)
struct LoadDriverIntervalTests {
    let scheduler = ManualScheduler()

    @Test func eachAnswer_isInTheIntervalItCameIn_andTheLastIntervalEndsWithTheRun() throws {
        // Answers at 10 ms × i + 1 ms: 100 a second, the last at 2,991 ms.
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }

        let report = try server.run(server.driver(.openLoop(perSecond: 100), for: .requests(300)))

        #expect(report.intervals.map(\.start) == [.zero, .seconds(1), .seconds(2)])
        #expect(report.intervals.map(\.length) == [.seconds(1), .seconds(1), .milliseconds(991)])
        #expect(report.intervals.map(\.histogram.count) == [100, 100, 100])
        let merged = report.intervals.reduce(into: LatencyHistogram()) { $0.merge($1.histogram) }
        #expect(merged == report.latencies)
    }

    @Test func aStall_showsInItsInterval() throws {
        // The server stops answering from 2 s to 3 s: what was asked meanwhile waits.
        let server = FakeServer(scheduler: scheduler) { index in
            (200..<300).contains(index) ? .milliseconds(3_000 - 10 * index + 1) : .milliseconds(1)
        }

        let report = try server.run(
            server.driver(.openLoop(perSecond: 100), for: .requests(500), interval: .milliseconds(500)))

        let p99s = report.intervals.map { $0.histogram.value(atPercentile: 99) }
        #expect(p99s.count == 10)
        #expect(p99s[0..<4].allSatisfy { $0 < .milliseconds(2) })
        #expect(p99s[4..<6].allSatisfy { $0 == .zero })  // nothing answered from 2 to 3 s
        #expect(p99s[6] >= .milliseconds(990))  // at 3 s, the whole queue at once
        #expect(report.intervals[6].histogram.count == 150)
    }

    @Test func theWarmUp_hasNoInterval() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }

        let report = try server.run(
            server.driver(.openLoop(perSecond: 100), for: .requests(200), warmUp: .duration(.seconds(1))))

        #expect(report.intervals.map(\.start) == [.seconds(1), .seconds(2)])
        #expect(report.intervals.map(\.histogram.count) == [100, 100])
    }

    @Test func aLongRun_keepsAtMostAThousandIntervals_mergedInPairs() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }

        let report = try server.run(server.driver(.openLoop(perSecond: 1), for: .requests(1_500)))

        #expect(report.intervals.count <= 1_000)
        #expect(report.intervals.count >= 500)
        #expect(report.intervals.first?.length == .seconds(2))
        #expect(report.intervals.reduce(0) { $0 + $1.histogram.count } == 1_500)
        // Contiguous: each starts where the one before ended.
        for (before, after) in zip(report.intervals, report.intervals.dropFirst()) {
            #expect(before.start + before.length == after.start)
        }
    }

    @Test func anIntervalShorterThanAMillisecond_isAConfigurationError() {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let report = server.driver(.closedLoop(inFlight: 1), for: .requests(1), interval: .microseconds(10))
            .run(on: .immediate) { server.handle($0) }

        #expect(throws: LoadDriver.InvalidConfiguration.self) { try report.value }
        #expect(report.error.map { "\($0)" } == "LoadDriver: interval 1e-05 seconds is shorter than a millisecond")
    }

    @Test func theIntervals_makeAnHdrHistogramLog_thatReadsBack() throws {
        let server = FakeServer(scheduler: scheduler) { index in .microseconds(100 + index) }
        let report = try server.run(server.driver(.openLoop(perSecond: 1_000), for: .requests(2_500)))

        let log = report.histogramLog(startTime: Date(timeIntervalSince1970: 1_764_288_000))
        let read = try HistogramLog(parsing: log.text)

        #expect(read.intervals.map(\.start) == report.intervals.map(\.start))
        #expect(read.intervals.map(\.histogram.count) == report.intervals.map(\.histogram.count))
        #expect(read.intervals.count == 3)
        #expect(read.total.percentileDistribution() == report.latencies.percentileDistribution())
    }

    @Test func theIntervals_surviveJSON() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let report = try server.run(server.driver(.openLoop(perSecond: 100), for: .requests(150)))

        let decoded = try JSONDecoder().decode(LoadReport.self, from: Data(report.json.utf8))

        #expect(decoded.intervals == report.intervals)
        #expect(decoded == report)
    }
}
