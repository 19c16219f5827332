import Foundation
import ResponseKit
import ResponseKitLoad
import ResponseKitTesting
import Testing

/// The page people look at: self-contained, three pictures per run, side by side.
@Suite(.responseChecks)
struct LoadReportPageTests {
    let scheduler = ManualScheduler()

    func run(latency: Duration, perSecond: Double = 100) throws -> LoadReport {
        let server = FakeServer(scheduler: scheduler) { _ in latency }
        return try server.run(server.driver(.openLoop(perSecond: perSecond), for: .requests(500)))
    }

    @Test func eachRun_hasThreePicturesAndItsTable_andThePageFetchesNothing() throws {
        let fast = try run(latency: .milliseconds(2))
        let slow = try run(latency: .milliseconds(9))

        let html = LoadReportPage(title: "Sign-in", runs: [("fast", fast), ("slow", slow)]).html

        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == 6)
        #expect(html.components(separatedBy: "<section class=\"run\">").count - 1 == 2)
        for title in ["Latency by percentile", "Throughput over the run", "Latency over the run"] {
            #expect(html.components(separatedBy: ">\(title)</text>").count - 1 == 2, "\(title)")
        }
        #expect(html.contains(fast.table.htmlEscapedForTest) && html.contains(slow.table.htmlEscapedForTest))
        // Nothing to load or run: no script, no stylesheet or image from anywhere.
        for forbidden in ["<script", "<link", "<img", "src=", "href=", "@import", "url("] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
    }

    @Test func thePercentileAxis_isHdrHistograms_andReachesAsFarAsTheSamples() throws {
        let html = LoadReportPage(title: "t", runs: [("run", try run(latency: .milliseconds(2)))]).html
        // 500 samples: 90 %, 99 % and 99.9 % are resolved (log₁₀ 500 ≈ 2.7), so the axis ends at 99.9 %.
        for label in [">0%<", ">90%<", ">99%<", ">99.9%<"] { #expect(html.contains(label), "\(label)") }
        #expect(!html.contains(">99.99%<"))
    }

    @Test func namesAndTitles_areEscaped() throws {
        let html = LoadReportPage(title: "<b>&", runs: [("a \"quoted\" <run>", try run(latency: .milliseconds(1)))])
            .html
        #expect(html.contains("<title>&lt;b&gt;&amp;</title>"))
        #expect(html.contains("<h2>a &quot;quoted&quot; &lt;run&gt;</h2>"))
        #expect(!html.contains("<run>"))
    }

    @Test func aRunWithoutAnswers_saysNoSamples_inItsPictures() {
        let empty = LoadReport(
            mode: .closedLoop(inFlight: 1), length: .requests(0), warmUp: .requests(0), requests: 0, completed: 0,
            failures: [:], cancelled: 0, cancelledAtEnd: 0, elapsed: .zero, latencies: LatencyHistogram(),
            executors: [:])
        let html = LoadReportPage(title: "empty", runs: [("nothing", empty)]).html
        #expect(html.components(separatedBy: ">no samples</text>").count - 1 == 3)
    }
}

extension String {
    /// What the page makes of a table: `&`, `<`, `>` and `"` escaped.
    fileprivate var htmlEscapedForTest: String {
        replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
