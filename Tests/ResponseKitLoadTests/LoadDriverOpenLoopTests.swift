import ResponseKit
import ResponseKitLoad
import ResponseKitTesting
import Testing

/// An open loop against a fake whose latencies are known exactly: requests start on schedule,
/// and latency counts from each one's intended start, so queueing shows.
@Suite(.responseChecks)
struct LoadDriverOpenLoopTests {
    let scheduler = ManualScheduler()

    @Test func requestsStart_onSchedule_whetherOrNotEarlierOnesAreAnswered() throws {
        let starts = Recorder<Duration>()
        let server = FakeServer(scheduler: scheduler) { _ in .seconds(1) }

        let report = try server.run(server.driver(.openLoop(perSecond: 100), for: .requests(50))) { index in
            starts.record(scheduler.now)
            return server.handle(index)
        }

        #expect(starts.values == (0..<50).map { .milliseconds($0 * 10) })
        #expect(report.completed == 50)
        #expect(report.latencies.minimum == .seconds(1))
        #expect(report.latencies.maximum == .seconds(1))
    }

    @Test func aDuration_isTheRequestsMeantToStartInIt() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }

        let report = try server.run(server.driver(.openLoop(perSecond: 1_000), for: .duration(.seconds(2))))

        #expect(report.requests == 2_000)
        #expect(report.completed == 2_000)
        // From the first intended start (0) to the last answer (1,999 ms + 1 ms).
        #expect(report.elapsed == .seconds(2))
        #expect(report.throughput == 1_000)
    }

    @Test func warmUp_isTheFirstRequestsOfTheSchedule_andTheMeasurementStartsAtTheNextOnesIntendedStart() throws {
        let server = FakeServer(scheduler: scheduler) { $0 < 100 ? .seconds(2) : .milliseconds(5) }

        let report = try server.run(
            server.driver(.openLoop(perSecond: 100), for: .requests(100), warmUp: .duration(.seconds(1))))

        #expect(report.requests == 100)
        #expect(report.latencies.count == 100)
        #expect(report.latencies.maximum == .milliseconds(5))
        // Measured from 1 s (request 100's intended start) to 1,990 ms + 5 ms.
        #expect(report.elapsed == .milliseconds(995))
    }

    @Test func latency_countsFromTheIntendedStart_soAnIssuerThatFellBehindIsCountedToo() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }

        let report = try server.run(server.driver(.openLoop(perSecond: 100), for: .requests(50))) { index in
            // Request 5's call takes 100 ms before it returns (a synchronous interactor): the
            // requests meant to start meanwhile (60 to 150 ms) start late, all at 150 ms.
            if index == 5 { scheduler.advance(by: .milliseconds(100)) }
            return server.handle(index)
        }

        let latencies = (0..<50).map { index -> Duration in
            let intended = Duration.milliseconds(10 * index)
            let made = (5...15).contains(index) ? Duration.milliseconds(150) : intended
            return made + .milliseconds(1) - intended
        }
        #expect(report.latencies.maximum == .milliseconds(101))
        for percentile: Double in [50, 75, 80, 90, 99] {
            let exact = exactPercentile(percentile, of: latencies)
            let reported = report.latencies.value(atPercentile: percentile)
            #expect(isWithinStatedError(reported, of: exact), "p\(percentile): \(reported), exactly \(exact)")
        }
        // Measured from when each was made, nine of them would read 1 ms, and p90 too; from the
        // schedule they read 11 to 91 ms, and p90 (the 45th of 50) is 51 ms.
        #expect(isWithinStatedError(report.latencies.value(atPercentile: 90), of: .milliseconds(51)))
    }

    /// The stall that a closed loop hides (Gil Tene's "coordinated omission"): a single worker
    /// answers in 1 ms, but request 500 holds it for a whole second.
    @Test func aStall_showsAsQueueingDelayInAnOpenLoop_thatAClosedLoopHides() throws {
        let service: @Sendable (Int) -> Duration = { $0 == 500 ? .seconds(1) : .milliseconds(1) }
        let closedServer = FakeServer(scheduler: ManualScheduler(), serial: true, serviceTime: service)
        let openServer = FakeServer(scheduler: scheduler, serial: true, serviceTime: service)

        let closed = try closedServer.run(closedServer.driver(.closedLoop(inFlight: 1), for: .requests(1_000)))
        let open = try openServer.run(openServer.driver(.openLoop(perSecond: 500), for: .requests(1_000)))

        // What each request really waited, from the schedule: arrivals every 2 ms, one worker.
        var openLatencies: [Duration] = []
        var free = Duration.zero
        for index in 0..<1_000 {
            let arrival = Duration.milliseconds(2 * index)
            free = max(free, arrival) + service(index)
            openLatencies.append(free - arrival)
        }
        for percentile in [50, 90, 99, 99.9] {
            let exact = exactPercentile(percentile, of: openLatencies)
            let reported = open.latencies.value(atPercentile: percentile)
            #expect(isWithinStatedError(reported, of: exact), "p\(percentile): \(reported), exactly \(exact)")
        }

        // The closed loop saw one slow answer in a thousand: its p99.9 is 1 ms.
        #expect(isWithinStatedError(closed.latencies.value(atPercentile: 90), of: .milliseconds(1)))
        #expect(isWithinStatedError(closed.latencies.value(atPercentile: 99.9), of: .milliseconds(1)))
        #expect(closed.latencies.maximum == .seconds(1))
        // The open loop counts the 499 requests that queued behind it: p90 is 900 ms.
        #expect(isWithinStatedError(open.latencies.value(atPercentile: 90), of: .milliseconds(900)))
        #expect(open.latencies.value(atPercentile: 90) > closed.latencies.value(atPercentile: 90) * 800)
    }

    @Test func requestsLeftUnanswered_areCancelledAtTheDrainTimeout_countingFromTheLastRequest() throws {
        let stuck = LockedBox.make([Resolver<Int>]())
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let driver = server.driver(.openLoop(perSecond: 10), for: .requests(10), drainTimeout: .seconds(3))

        let report = driver.run(on: .immediate) { index -> Response<Int> in
            guard index.isMultiple(of: 5) else { return server.handle(index) }
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            stuck.withLock { $0.append(resolver) }
            return response
        }

        // The last request is made at 900 ms: the deadline is 3 s after that.
        scheduler.advance(by: .milliseconds(3_899))
        #expect(!report.isDone)
        scheduler.advance(by: .milliseconds(1))
        let done = try #require(report.isDone ? try report.value : nil)
        #expect(done.completed == 8)
        #expect(done.cancelled == 2)
        #expect(done.cancelledAtEnd == 2)
        #expect(done.latencies.count == 8)
    }
}
