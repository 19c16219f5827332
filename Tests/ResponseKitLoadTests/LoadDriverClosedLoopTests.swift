import Dispatch
import ResponseKit
import ResponseKitLoad
import ResponseKitTesting
import Testing

/// A closed loop against a fake whose latencies are known exactly, in virtual time.
@Suite(.responseChecks)
struct LoadDriverClosedLoopTests {
    struct Timeout: Error {}
    struct Refused: Error {}

    let scheduler = ManualScheduler()

    // MARK: - Latencies

    @Test(arguments: [1, 4, 64])
    func percentiles_matchTheKnownDistribution_withinTheStatedError(inFlight: Int) throws {
        // Request i takes (i % 100 + 1) ms: 1 to 100 ms, ten times each.
        let server = FakeServer(scheduler: scheduler) { .milliseconds($0 % 100 + 1) }
        let latencies = (0..<1_000).map { Duration.milliseconds($0 % 100 + 1) }

        let report = try server.run(server.driver(.closedLoop(inFlight: inFlight), for: .requests(1_000)))

        #expect(report.requests == 1_000)
        #expect(report.completed == 1_000)
        #expect(report.latencies.count == 1_000)
        #expect(report.latencies.minimum == .milliseconds(1))
        #expect(report.latencies.maximum == .milliseconds(100))
        for percentile in [50, 90, 99, 99.9] {
            let exact = exactPercentile(percentile, of: latencies)
            let reported = report.latencies.value(atPercentile: percentile)
            #expect(isWithinStatedError(reported, of: exact), "p\(percentile): \(reported), exactly \(exact)")
        }
    }

    @Test func oneInFlight_throughputIsRequestsOverTheSumOfTheirLatencies() throws {
        let server = FakeServer(scheduler: scheduler) { .milliseconds($0 % 100 + 1) }

        let report = try server.run(server.driver(.closedLoop(inFlight: 1), for: .requests(1_000)))

        // 10 × (1 + 2 + … + 100) ms = 50.5 s for 1,000 answers, one after the other.
        #expect(report.elapsed == .milliseconds(50_500))
        #expect(abs(report.throughput - 1_000 / 50.5) < 1e-9)
    }

    @Test func aDuration_makesRequestsUntilItIsOver_andWaitsForTheirAnswers() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(10) }

        let report = try server.run(server.driver(.closedLoop(inFlight: 2), for: .duration(.seconds(1))))

        // Each lane makes one every 10 ms, from 0 to 990 ms: 100 each.
        #expect(report.requests == 200)
        #expect(report.completed == 200)
        #expect(report.elapsed == .seconds(1))
        #expect(report.throughput == 200)
    }

    // MARK: - Warm-up

    @Test func warmUpRequests_areMade_butNotCounted() throws {
        let seen = Recorder<Int>()
        // The first ten are slow: a cold cache.
        let server = FakeServer(scheduler: scheduler) { $0 < 10 ? .seconds(1) : .milliseconds(1) }

        let report = try server.run(server.driver(.closedLoop(inFlight: 1), for: .requests(50), warmUp: .requests(10)))
        {
            seen.record($0)
            return server.handle($0)
        }

        #expect(seen.values == Array(0..<60))
        #expect(report.requests == 50)
        #expect(report.latencies.count == 50)
        #expect(report.latencies.maximum == .milliseconds(1))
        #expect(report.elapsed == .milliseconds(50))
    }

    @Test func aWarmUpDuration_endsTheWarmUpByTheClock() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(100) }

        let report = try server.run(
            server.driver(.closedLoop(inFlight: 1), for: .requests(5), warmUp: .duration(.milliseconds(250))))

        // Made at 0, 100 and 200 ms: warm-up. Measured: from 300 ms on.
        #expect(report.requests == 5)
        #expect(report.elapsed == .milliseconds(500))
    }

    // MARK: - Outcomes

    @Test func answers_areCountedByOutcome_failuresByErrorType() throws {
        let driver = FakeServer(scheduler: scheduler) { _ in .zero }
            .driver(.closedLoop(inFlight: 3), for: .requests(100))

        let report = try FakeServer(scheduler: scheduler) { _ in .zero }.run(driver) { index -> Response<Int> in
            switch index % 10 {
            case 0: return .failed(Timeout(), on: .immediate)
            case 1, 2: return .failed(Refused(), on: .immediate)
            case 3:
                let (response, resolver) = Response<Int>.pending(on: .immediate)
                response.cancel()  // the interactor gave up on its own
                _ = resolver
                return response
            default: return .succeeded(index, on: .immediate)
            }
        }

        #expect(report.completed == 60)
        #expect(report.failures == ["Timeout": 10, "Refused": 20])
        #expect(report.failed == 30)
        #expect(report.cancelled == 10)
        #expect(report.cancelledAtEnd == 0)
        #expect(report.latencies.count == 100)
        #expect(report.answers == 100)
    }

    @Test func answersThatNeverCome_areCancelledAtTheDrainTimeout_andLeftOutOfTheLatencies() throws {
        let stuck = LockedBox.make([Resolver<Int>]())
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let driver = server.driver(.closedLoop(inFlight: 2), for: .requests(20), drainTimeout: .seconds(5))

        let report = try server.run(driver) { index -> Response<Int> in
            guard index == 3 else { return server.handle(index) }
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            stuck.withLock { $0.append(resolver) }  // kept, never resolved
            return response
        }

        #expect(report.completed == 19)
        #expect(report.cancelled == 1)
        #expect(report.cancelledAtEnd == 1)
        #expect(report.latencies.count == 19)
        #expect(report.answers == 19)
        #expect(report.table.contains("1 (1 unanswered at the end)"))
    }

    // MARK: - Threads and executors

    @Test func answersThatComeAtOnce_neverNest_however_many() throws {
        // Inline answers are settled in a loop, not by recursion: 200,000 would overflow a stack.
        let driver = FakeServer(scheduler: scheduler) { _ in .zero }
            .driver(.closedLoop(inFlight: 8), for: .requests(200_000))

        let report = try FakeServer(scheduler: scheduler) { _ in .zero }.run(driver) { index in
            Response.succeeded(index, on: .immediate)
        }

        #expect(report.completed == 200_000)
        #expect(report.executors == ["immediate": 200_000])
    }

    @Test func theReport_namesTheExecutorTheAnswersCameBackOn() throws {
        // Real time and real threads: answers delivered on a queue of their own.
        let answers = DispatchQueue(label: "answers")
        let driver = LoadDriver(.closedLoop(inFlight: 4), for: .requests(1_000), progress: .silent)

        let report = try driver.run(on: .immediate) { index in Response.succeeded(index, on: .queue(answers)) }.value

        #expect(report.completed == 1_000)
        #expect(report.executors == ["queue(answers)": 1_000])
    }

    // MARK: - Stopping

    @Test func cancellingTheReport_stopsTheRun_andCancelsTheRequestsInFlight() throws {
        let server = FakeServer(scheduler: scheduler) { _ in .seconds(1) }
        let seen = Recorder<Int>()
        let report = server.driver(.closedLoop(inFlight: 3), for: .duration(.seconds(100)))
            .run(on: .immediate) { index in
                seen.record(index)
                return server.handle(index)
            }

        scheduler.advance(by: .milliseconds(2_500))
        report.cancel()
        scheduler.advance(by: .seconds(10))

        #expect(throws: CancellationError.self) { try report.value }
        #expect(seen.count == 9)  // three at 0, 1 and 2 s
        #expect(scheduler.pendingCount == 0)  // the fake's answers were cancelled with their requests
    }
}
