import Foundation
import ResponseKit
import ResponseKitLoad
import ResponseKitTesting
import Testing

/// Runs in stages, in virtual time: an open loop's requests start when the integral of the rate
/// reaches their number, and a closed loop starts and retires lanes as the target moves.
@Suite(.responseChecks)
struct LoadDriverStageTests {
    let scheduler = ManualScheduler()

    // MARK: - Open loop

    @Test func aRamp_startsRequestI_whenTheIntegratedRateReachesI() throws {
        // From 0 to 100 a second over 10 s: N(t) = 5 t², so request i is meant to start at √(i / 5) s.
        let starts = Recorder<Duration>()
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }

        let report = try server.run(server.driver(stages: .openLoopStages([.ramp(to: 100, over: .seconds(10))]))) {
            starts.record(scheduler.now)
            return server.handle($0)
        }

        #expect(report.requests == 500)
        #expect(starts.values.count == 500)
        for (index, start) in starts.values.enumerated() {
            let exact = (Double(index) / 5).squareRoot()
            #expect(abs(start.inSeconds - exact) <= 1e-9, "request \(index) at \(start), exactly \(exact) s")
        }
        #expect(starts.values[1] == .nanoseconds(447_213_595))  // √0.2 s
        #expect(starts.values[499] == .nanoseconds(9_989_994_995))  // √99.8 s
    }

    @Test func aStepThenARampDown_followTheClosedForm_andTheRunEndsWithTheStages() throws {
        // 200 a second for 5 s (1,000 requests), then 200 down to 0 over 10 s: N(5 + s) = 1,000 +
        // 200 s − 10 s², so request 1,000 + x starts at 15 − √(100 − x / 10) s; 2,000 in all.
        let starts = Recorder<Duration>()
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let stages: [LoadStage] = [.step(to: 200, for: .seconds(5)), .ramp(to: 0, over: .seconds(10))]

        let report = try server.run(server.driver(stages: .openLoopStages(stages))) {
            starts.record(scheduler.now)
            return server.handle($0)
        }

        #expect(report.requests == 2_000)
        let exact = (0..<2_000).map { (index: Int) -> Double in
            guard index >= 1_000 else { return Double(index) / 200 }
            let x = Double(index - 1_000)
            return 15 - (100 - x / 10).squareRoot()
        }
        #expect(starts.values.count == exact.count)
        for (index, (start, exact)) in zip(starts.values, exact).enumerated() {
            #expect(abs(start.inSeconds - exact) <= 1e-9, "request \(index) at \(start), exactly \(exact) s")
        }
        #expect(starts.values.last == .nanoseconds(14_683_772_234))  // 15 − √0.1 s
    }

    @Test func theIntervals_showTheRateRamping() throws {
        // N(t) = 5 t²: second k holds 5 (k + 1)² − 5 k² = 10 k + 5 requests.
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }

        let report = try server.run(server.driver(stages: .openLoopStages([.ramp(to: 100, over: .seconds(10))])))

        #expect(report.intervals.map(\.histogram.count) == (0..<10).map { 10 * $0 + 5 })
        #expect(report.intervals.map(\.start) == (0..<10).map { .seconds($0) })
    }

    @Test func aLengthLongerThanTheStages_holdsTheLastTarget() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let driver = server.driver(.openLoopStages([.ramp(to: 100, over: .seconds(2))]), for: .duration(.seconds(4)))

        let report = try server.run(driver)

        // 100 in the ramp (N(2 s) = 100), then 100 a second for 2 s.
        #expect(report.requests == 300)
        #expect(report.intervals.map(\.histogram.count) == [25, 75, 100, 100])
    }

    @Test func aWarmUp_isTheFirstPartOfTheStages() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let driver = server.driver(
            .openLoopStages([.step(to: 100, for: .seconds(1)), .step(to: 300, for: .seconds(1))]),
            for: .duration(.seconds(1)), warmUp: .duration(.seconds(1)))

        let report = try server.run(driver)

        #expect(report.requests == 300)
        #expect(report.intervals.map(\.histogram.count) == [300])
    }

    // MARK: - Closed loop

    @Test func aClosedLoopInSteps_startsLanes_andRetiredLanesFinishTheirRequestAndStop() throws {
        // Each request takes 70 ms; 2 in flight for 1 s, 4 for 1 s, 1 for 1 s.
        let inFlight = LockedBox.make(0)
        let starts = Recorder<(at: Duration, inFlight: Int)>()
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(70) }
        let stages: [LoadStage] = [
            .step(to: 2, for: .seconds(1)), .step(to: 4, for: .seconds(1)), .step(to: 1, for: .seconds(1)),
        ]

        let report = try server.run(server.driver(stages: .closedLoopStages(stages))) { index in
            let count = inFlight.withLock { count in
                count += 1
                return count
            }
            starts.record((scheduler.now, count))
            return server.handle(index).onResult { _ in inFlight.withLock { $0 -= 1 } }
        }

        func made(in seconds: Range<Int>) -> [(at: Duration, inFlight: Int)] {
            starts.values.filter { .seconds(seconds.lowerBound) <= $0.at && $0.at < .seconds(seconds.upperBound) }
        }
        // 0 to 1 s: two lanes, a request every 70 ms from 0 to 980 ms: 15 each.
        #expect(made(in: 0..<1).count == 30)
        #expect(made(in: 0..<1).allSatisfy { $0.inFlight <= 2 })
        // 1 to 2 s: those two go on at 1,050 to 1,960 ms (14 each); two more from 1,000 to 1,980 ms (15 each).
        #expect(made(in: 1..<2).count == 58)
        #expect(made(in: 1..<2).map(\.at).filter { $0 == .seconds(1) }.count == 2)
        #expect(made(in: 1..<2).contains { $0.inFlight == 4 })
        // 2 to 3 s: lanes 1 to 3 finish what they have in flight and stop; lane 0 goes on at
        // 2,030 to 2,940 ms: 14 requests, each alone in flight once the others are answered (2,050 ms).
        #expect(made(in: 2..<3).count == 14)
        #expect(made(in: 2..<3).filter { $0.at > .milliseconds(2_050) }.allSatisfy { $0.inFlight == 1 })
        #expect(report.requests == 102)
        #expect(report.completed == 102)
        #expect(report.intervals.map(\.histogram.count) == [28, 56, 17, 1])
    }

    @Test func aRetiredLane_startsAgain_whenTheTargetRisesAgain() throws {
        // 70 ms a request; 2 in flight, then 1, then 2 again, a second each.
        let starts = Recorder<Duration>()
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(70) }
        let stages: [LoadStage] = [
            .step(to: 2, for: .seconds(1)), .step(to: 1, for: .seconds(1)), .step(to: 2, for: .seconds(1)),
        ]

        let report = try server.run(server.driver(stages: .closedLoopStages(stages))) {
            starts.record(scheduler.now)
            return server.handle($0)
        }

        func made(in seconds: Range<Int>) -> Int {
            starts.values.count { .seconds(seconds.lowerBound) <= $0 && $0 < .seconds(seconds.upperBound) }
        }
        // Lane 1 finishes its request of 980 ms at 1,050 ms and waits; at 2 s it starts again.
        #expect(made(in: 0..<1) == 30)
        #expect(made(in: 1..<2) == 14)
        #expect(made(in: 2..<3) == 29)
        #expect(starts.values.filter { $0 == .seconds(2) }.count == 1)
        #expect(report.requests == 73)
    }

    @Test func aClosedLoopRamp_startsALaneEachTimeTheTargetPassesAHalf() throws {
        // 0 to 4 in flight over 4 s: a lane starts at 0.5, 1.5, 2.5 and 3.5 s; each request takes
        // 10 s, so each lane makes one.
        let starts = Recorder<Duration>()
        let server = FakeServer(scheduler: scheduler) { _ in .seconds(10) }

        let report = try server.run(server.driver(stages: .closedLoopStages([.ramp(to: 4, over: .seconds(4))]))) {
            starts.record(scheduler.now)
            return server.handle($0)
        }

        #expect(
            starts.values == [.milliseconds(500), .milliseconds(1_500), .milliseconds(2_500), .milliseconds(3_500)])
        #expect(report.completed == 4)
    }

    @Test func aClosedLoopRampFromZero_isMeasuredFromTheRunsStart_notFromItsFirstRequest() throws {
        // 0 to 2 in flight over 2 s, 300 ms a request: lane 0 starts at 0.5 s, lane 1 at 1.5 s,
        // and the run ends at 2 s, not 2 s after the first request.
        let starts = Recorder<Duration>()
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(300) }

        let report = try server.run(server.driver(stages: .closedLoopStages([.ramp(to: 2, over: .seconds(2))]))) {
            starts.record(scheduler.now)
            return server.handle($0)
        }

        let expected: [Duration] = [500, 800, 1_100, 1_400, 1_500, 1_700, 1_800].map { .milliseconds($0) }
        #expect(starts.values == expected)
        #expect(report.requests == 7)
        // From the start of the run (0) to the last answer (2,100 ms).
        #expect(report.elapsed == .milliseconds(2_100))
    }

    @Test func aClosedLoopRampDownToZero_endsWithTheStages() throws {
        // 3 in flight, down to 0 over 3 s: lanes retire at 0.5, 1.5 and 2.5 s; the last answer
        // of lane 0 (a request every 200 ms) comes at 2.6 s.
        let starts = Recorder<Duration>()
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(200) }
        let stages: [LoadStage] = [.step(to: 3, for: .zero), .ramp(to: 0, over: .seconds(3))]

        let report = try server.run(server.driver(stages: .closedLoopStages(stages))) {
            starts.record(scheduler.now)
            return server.handle($0)
        }

        // Lane 2 makes requests at 0 to 400 ms (3), lane 1 at 0 to 1,400 ms (8), lane 0 at 0 to 2,400 ms (13).
        #expect(starts.values.count == 24)
        #expect(starts.values.last == .milliseconds(2_400))
        #expect(report.completed == 24)
    }

    // MARK: - Configuration and report

    @Test func stagesThatNeverMakeARequest_areAConfigurationError() {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        for mode: LoadDriver.Mode in [
            .openLoopStages([.step(to: 0, for: .seconds(1))]), .closedLoopStages([.ramp(to: 0.4, over: .seconds(1))]),
        ] {
            let report = server.driver(stages: mode).run(on: .immediate) { server.handle($0) }
            #expect(throws: LoadDriver.InvalidConfiguration.self) { try report.value }
        }
        let negative = server.driver(stages: .openLoopStages([.step(to: -1, for: .seconds(1))]))
            .run(on: .immediate) { server.handle($0) }
        #expect(
            negative.error.map { "\($0)" }
                == "LoadDriver: stage 1 (target -1.0, 1.0 seconds) needs a target that is 0 or more and finite, "
                + "and a duration that is not negative")
        let tooMany = server.driver(stages: .closedLoopStages([.ramp(to: 1e12, over: .seconds(1))]))
            .run(on: .immediate) { server.handle($0) }
        #expect(
            tooMany.error.map { "\($0)" }
                == "LoadDriver: a closed loop in stages goes up to 1000000000000.0, past 1,000,000")
        let warmUpOfRequests = server.driver(
            .closedLoopStages([.step(to: 1, for: .seconds(1))]), for: .duration(.seconds(1)), warmUp: .requests(5)
        )
        .run(on: .immediate) { server.handle($0) }
        #expect(
            warmUpOfRequests.error.map { "\($0)" }
                == "LoadDriver: a closed loop in stages needs its warm-up as a duration, not .requests(5)")
    }

    @Test func theReport_saysTheStages_inItsTableAndJSON() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let stages: [LoadStage] = [.ramp(to: 100, over: .seconds(2)), .step(to: 50, for: .milliseconds(1_500))]

        let report = try server.run(server.driver(stages: .openLoopStages(stages)))
        let decoded = try JSONDecoder().decode(LoadReport.self, from: Data(report.json.utf8))

        #expect(report.table.contains("open loop in stages, requests/s: ↗ 100 (2 s), → 50 (1.50 s)"))
        #expect(
            report.json.contains(
                #""mode":{"openLoopStages":[{"durationNanoseconds":2000000000,"shape":"ramp","target":100},"#
                    + #"{"durationNanoseconds":1500000000,"shape":"step","target":50}]}"#))
        #expect(decoded.mode == .openLoopStages(stages))
        #expect(decoded == report)
    }
}
