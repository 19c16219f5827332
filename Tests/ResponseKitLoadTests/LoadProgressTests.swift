import ResponseKit
import ResponseKitLoad
import ResponseKitTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite(.responseChecks)
struct LoadProgressTests {
    let scheduler = ManualScheduler()

    @Test func snapshots_comeEveryInterval_fromTheFirstOn_withTheCurrentRate() throws {
        let snapshots = Recorder<LoadProgress.Snapshot>()
        // One lane, 10 ms a request: 100 answers a second; the first second starts slower.
        let server = FakeServer(scheduler: scheduler) { $0 < 50 ? .milliseconds(20) : .milliseconds(10) }
        let driver = server.driver(
            .closedLoop(inFlight: 1), for: .duration(.milliseconds(3_500)),
            progress: .every(.seconds(1)) { snapshots.record($0) })

        let report = try server.run(driver)

        // Each snapshot, scheduled before the answer due at the same instant, runs first: at 1 s,
        // 49 answers of 20 ms each, the 50th request pending; then 100 answers a second.
        #expect(
            snapshots.values == [
                LoadProgress.Snapshot(elapsed: .seconds(1), requests: 50, answers: 49, perSecond: 49),
                LoadProgress.Snapshot(elapsed: .seconds(2), requests: 150, answers: 149, perSecond: 100),
                LoadProgress.Snapshot(elapsed: .seconds(3), requests: 250, answers: 249, perSecond: 100),
            ])
        #expect(report.requests == 300)
        #expect(scheduler.pendingCount == 0)  // no progress timer left behind
    }

    @Test func aRunShorterThanTheInterval_saysNothing() throws {
        let snapshots = Recorder<LoadProgress.Snapshot>()
        let server = FakeServer(scheduler: scheduler) { _ in .milliseconds(1) }
        let driver = server.driver(
            .closedLoop(inFlight: 1), for: .requests(100), progress: .every(.seconds(1)) { snapshots.record($0) })

        _ = try server.run(driver)

        #expect(snapshots.values.isEmpty)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theLine_saysRequestsAnswersAndTheRate_withGroupedDigits() {
        let snapshot = LoadProgress.Snapshot(
            elapsed: .milliseconds(3_400), requests: 301_234, answers: 301_170, perSecond: 100_401.6)

        #expect(snapshot.line == "load: 3 s, 301,234 requests, 301,170 answers, 100,402/s now")
    }

    @Test func standardError_isSilent_whenItIsNotATerminal() {
        // Under `swift test` standard error is a pipe or a file, unless run by hand in a terminal.
        guard isatty(2) == 0 else { return }
        let server = FakeServer(scheduler: scheduler) { _ in .seconds(1) }
        let report = server.driver(.closedLoop(inFlight: 1), for: .requests(5), progress: .standardError)
            .run(on: .immediate) { server.handle($0) }

        scheduler.runDue()  // the start: a progress timer would be scheduled now
        #expect(scheduler.pendingCount == 2)  // the first answer's and the first interval's end, no progress
        scheduler.advance(by: .seconds(5))
        #expect(report.isDone)
    }
}
