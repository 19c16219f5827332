import ResponseKit
import ResponseKitLoad
import ResponseKitTesting
import Testing

/// The rate search in virtual time, against fakes whose latency at each rate is known exactly.
@Suite(.responseChecks)
struct LoadRateSearchTests {
    let scheduler = ManualScheduler()

    func search(from: Double = 100, to: Double = 10_000) -> LoadRateSearch {
        LoadRateSearch(
            limit: .milliseconds(50), percentile: 99, from: from, to: to, stepDuration: .seconds(1),
            clock: LoadClock(scheduler: scheduler, now: { [scheduler] in scheduler.now }), progress: .silent)
    }

    func run(_ search: LoadRateSearch, _ request: @escaping @Sendable (Int) -> Response<Int>) throws
        -> LoadRateSearch.Outcome
    {
        let outcome = search.run(on: .immediate, request)
        scheduler.advance(by: .seconds(100_000))
        #expect(outcome.isDone)
        return try outcome.value
    }

    /// A single worker taking 1 ms a request (capacity 1,000 a second), with arrivals every 1/r:
    /// below capacity every request takes 1 ms; above it, request i waits for those before it
    /// and takes 1 ms + i (1 ms − 1/r). With n = r requests in a 1 s step, p99 (request 0.99 n)
    /// is 1 ms + 0.99 r (1 ms − 1/r), which reaches 50 ms at r = 1,039 / 0.99 = 1,049.5 a second.
    @Test func findsTheRateWhereP99CrossesTheLimit_ofASingleServerQueue() throws {
        let server = FakeServer(scheduler: scheduler, serial: true) { _ in .milliseconds(1) }

        let outcome = try run(search()) { server.handle($0) }

        let crossing = 1.039 / 0.99 * 1_000
        let found = try #require(outcome.highestPassingRate)
        #expect(found <= crossing)
        #expect(found >= crossing / 1.02)
        #expect(outcome.steps.prefix(5).map(\.rate) == [100, 200, 400, 800, 1_600])
        // Each step passed exactly when the queue's p99 says so.
        for step in outcome.steps {
            let requests = Int((step.rate - 1e-6).rounded(.up))
            let rank = Int((0.99 * Double(requests) * (1 - 1e-12)).rounded(.up))
            let exact = step.rate <= 1_000 ? 0.001 : 0.001 + Double(rank - 1) * (0.001 - 1 / step.rate)
            #expect(abs(step.latency.inSeconds - exact) <= exact / 128, "at \(step.rate)/s")
            // Passed exactly when p99 was under the limit (the histogram's 1/128 aside).
            if abs(exact - 0.050) > 0.050 / 128 { #expect(step.passed == (exact <= 0.050), "at \(step.rate)/s") }
        }
        // The answer passed twice: it came within 10 % of the limit, so it was run again.
        let atFound = outcome.steps.filter { $0.rate == found }
        #expect(atFound.map(\.passed) == [true, true])
        #expect(atFound.map(\.isRerun) == [false, true])
        // And the lowest rate that failed is within 2 % above it.
        let lowestFailing = try #require(outcome.steps.filter { !$0.passed }.map(\.rate).min())
        #expect(lowestFailing / found <= 1.02)
    }

    @Test func aStepThatPassesNearTheLimit_butNotOnItsRerun_doesNotCount() throws {
        // Latency by step: 100/s passes (10 ms); 200/s passes near the limit (48 ms) but fails
        // its rerun (60 ms); every later step fails.
        let latencies: [Duration] = [.milliseconds(10), .milliseconds(48), .milliseconds(60)]
        let step = LockedBox.make(-1)
        let server = FakeServer(scheduler: scheduler) { index in
            let number = step.withLock { step in
                if index == 0 { step += 1 }
                return step
            }
            return number < latencies.count ? latencies[number] : .milliseconds(60)
        }

        let outcome = try run(search()) { server.handle($0) }

        #expect(outcome.steps.prefix(3).map(\.rate) == [100, 200, 200])
        #expect(outcome.steps.prefix(3).map(\.passed) == [true, true, false])
        #expect(outcome.steps.prefix(3).map(\.isRerun) == [false, false, true])
        #expect(outcome.highestPassingRate == 100)
    }

    @Test func whenTheTopRatePasses_itIsTheAnswer_andWhenTheFirstFails_thereIsNone() throws {
        let fast = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let fastOutcome = try run(search(from: 100, to: 500)) { fast.handle($0) }
        #expect(fastOutcome.steps.map(\.rate) == [100, 200, 400, 500])
        #expect(fastOutcome.highestPassingRate == 500)

        let slow = FakeServer(scheduler: scheduler) { _ in .milliseconds(80) }
        let slowOutcome = try run(search()) { slow.handle($0) }
        #expect(slowOutcome.steps.map(\.rate) == [100])
        #expect(slowOutcome.highestPassingRate == nil)
    }

    @Test func cancellingTheSearch_stopsTheStepRunning_andMakesNoMore() {
        let made = LockedBox.make(0)
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let outcome = search().run(on: .immediate) { index in
            made.withLock { $0 += 1 }
            return server.handle(index)
        }

        // The first step (100 a second for 1 s) is over; the second (200 a second) is half way.
        scheduler.advance(by: .milliseconds(1_500))
        outcome.cancel()
        let madeWhenCancelled = made.withLock { $0 }
        scheduler.advance(by: .seconds(100))

        #expect(madeWhenCancelled > 100 && madeWhenCancelled < 300)
        #expect(made.withLock { $0 } == madeWhenCancelled)
        #expect(throws: CancellationError.self) { try outcome.value }
    }

    @Test func aSearchThatCannotRun_saysWhy() {
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let outcome = search(from: 500, to: 100).run(on: .immediate) { server.handle($0) }
        #expect(throws: LoadDriver.InvalidConfiguration.self) { try outcome.value }
    }
}
