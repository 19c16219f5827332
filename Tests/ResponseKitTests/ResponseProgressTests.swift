import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// The work reports progress through its resolver; observers hear it on the response's executor,
/// coalesced, never backwards, ending at 1 on success; `all` reports the mean of its inputs.
struct ResponseProgressTests {
    init() { startRecordingDiagnostics() }

    @Test func observersHearProgress_inOrder_neverBackwards_andOneBeforeTheSuccessCallbacks() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let heard = Recorder<String>()
        response.onProgress { heard.record("\($0)") }
        response.onCompletion { heard.record("value \($0)") }

        resolver.reportProgress(0.5)
        resolver.reportProgress(0.3)
        resolver.reportProgress(0.5)
        resolver.reportProgress(0.75)
        resolver.succeed(7)

        #expect(heard.values == ["0.5", "0.75", "1.0", "value 7"])
        #expect(response.progress == 1)
    }

    @Test func deliveriesAreCoalesced_whileOneIsOnItsWay() {
        let executor = ManualExecutor()
        let (response, resolver) = Response<Int>.pending(on: executor)
        defer { withExtendedLifetime(resolver) {} }
        let heard = Recorder<Double>()
        response.onProgress { heard.record($0) }

        resolver.reportProgress(0.1)
        resolver.reportProgress(0.2)
        resolver.reportProgress(0.3)
        #expect(executor.pendingCount == 1, "one delivery on its way, whatever the number of reports")
        _ = executor.runAll()
        #expect(heard.values == [0.3])

        resolver.reportProgress(0.6)
        _ = executor.runAll()
        #expect(heard.values == [0.3, 0.6])
    }

    @Test func aFailureOrACancellation_doesNotReportOne_andKeepsTheLastFraction() {
        let (failing, failingResolver) = Response<Int>.pending(on: .immediate)
        let (cancelled, cancelledResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(cancelledResolver) {} }
        let heard = Recorder<Double>()
        failing.onProgress { heard.record($0) }
        cancelled.onProgress { heard.record($0) }
        failing.onFailure { _ in }

        failingResolver.reportProgress(0.4)
        failingResolver.fail(TestError())
        cancelledResolver.reportProgress(0.2)
        cancelled.cancel()
        cancelledResolver.reportProgress(0.9)

        #expect(heard.values == [0.4, 0.2])
        #expect(failing.progress == 0.4)
        #expect(cancelled.progress == 0.2)
    }

    @Test func aLateObserver_neverHearsAnOlderValueAfterANewerOne_whileADeliveryIsOnItsWay() {
        let executor = ManualExecutor()
        let (response, resolver) = Response<Int>.pending(on: executor.executor)
        defer { withExtendedLifetime(resolver) {} }
        let early = Recorder<Double>()
        let late = Recorder<Double>()
        response.onProgress { early.record($0) }
        resolver.reportProgress(0.3)
        _ = executor.runAll()
        resolver.reportProgress(0.6)  // a delivery of 0.6 is on its way
        response.onProgress { late.record($0) }
        _ = executor.runAll()

        #expect(early.values == [0.3, 0.6])
        #expect(late.values == late.values.sorted(), "never backwards: \(late.values)")
        #expect(late.values.last == 0.6)
    }

    @Test func onAnExecutor_theLastFractionArrivesBeforeTheFailureCallbacks_andNothingAfter() {
        let executor = ManualExecutor()
        let (response, resolver) = Response<Int>.pending(on: executor.executor)
        let heard = Recorder<String>()
        response.onProgress { heard.record("\($0)") }
        response.onFailure { _ in heard.record("failed") }
        resolver.reportProgress(0.4)
        resolver.fail(TestError())
        resolver.reportProgress(0.9)
        #expect(heard.values.isEmpty, "nothing runs before the executor does")
        _ = executor.runAll()
        #expect(heard.values == ["0.4", "failed"])
    }

    @Test func onAnExecutor_oneArrivesBeforeTheSuccessCallbacks_evenWhenADeliveryWasOnItsWay() {
        let executor = ManualExecutor()
        let (response, resolver) = Response<Int>.pending(on: executor.executor)
        let heard = Recorder<String>()
        response.onProgress { heard.record("\($0)") }
        response.onCompletion { heard.record("value \($0)") }
        resolver.reportProgress(0.4)
        resolver.succeed(3)
        _ = executor.runAll()
        #expect(heard.values == ["1.0", "value 3"], "the delivery on its way hands out the latest: 1")
        response.onProgress { heard.record("late \($0)") }
        _ = executor.runAll()
        #expect(heard.values.last == "late 1.0")
    }

    @Test func progressIsNeverAboveOne_evenWhenReportedFromManyThreads() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }
        let heard = Recorder<Double>()
        response.onProgress { heard.record($0) }
        DispatchQueue.concurrentPerform(iterations: 8) { lane in
            for step in 0...100 { resolver.reportProgress(Double(step) / 100 + Double(lane) / 10) }
        }
        #expect(heard.values.allSatisfy { $0 >= 0 && $0 <= 1 })
        #expect(response.progress == 1)
    }

    @Test func badFractionsAreIgnoredOrClamped_andUnitsBecomeFractions() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }
        let heard = Recorder<Double>()
        response.onProgress { heard.record($0) }

        resolver.reportProgress(.nan)
        resolver.reportProgress(-1)
        resolver.reportProgress(completed: 1, of: 0)
        resolver.reportProgress(completed: 1, of: 4)
        resolver.reportProgress(completed: 3, of: 4)
        resolver.reportProgress(.infinity)
        resolver.reportProgress(7)

        #expect(heard.values == [0.25, 0.75, 1.0])
        #expect(!response.isDone, "progress 1 is not a result")
    }

    @Test func aLateObserver_hearsWhatOthersHeard_andOneOnASucceededResponse() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let early = Recorder<Double>()
        let late = Recorder<Double>()
        response.onProgress { early.record($0) }
        resolver.reportProgress(0.5)
        response.onProgress { late.record($0) }
        #expect(late.values == [0.5])

        resolver.succeed(1)
        let afterwards = Recorder<Double>()
        response.onProgress { afterwards.record($0) }
        #expect(early.values == [0.5, 1.0])
        #expect(late.values == [0.5, 1.0])
        #expect(afterwards.values == [1.0])
    }

    @Test func progressReportedBeforeAnyObserver_isDeliveredWhenOneArrives() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }
        #expect(response.progress == 0)
        resolver.reportProgress(0.4)
        #expect(response.progress == 0.4)
        let heard = Recorder<Double>()
        response.onProgress { heard.record($0) }
        #expect(heard.values == [0.4])
    }

    @Test func all_reportsTheMeanOfItsInputs() throws {
        let (first, firstResolver) = Response<Int>.pending(on: .immediate)
        let (second, secondResolver) = Response<Int>.pending(on: .immediate)
        let combined = Response.all([first, second], on: .immediate)
        let heard = Recorder<Double>()
        combined.onProgress { heard.record($0) }

        firstResolver.reportProgress(0.5)
        secondResolver.succeed(2)
        firstResolver.succeed(1)

        #expect(heard.values == [0.25, 0.75, 1.0])
        #expect(try combined.value == [1, 2])
    }

    @Test func all_followsItsInputsOnlyOnceItsProgressIsObserved() {
        let (input, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }
        let combined = Response.all([input], on: .immediate)
        resolver.reportProgress(0.5)
        #expect(combined.progress == 0, "nobody follows it, so it did not follow its input")

        let heard = Recorder<Double>()
        combined.onProgress { heard.record($0) }
        #expect(heard.values == [0.5], "once observed it catches up with its inputs")
        #expect(combined.progress == 0.5)
    }

    @Test func all_ofInputsThatFinishedAlready_hearsOneOnlyFromItsOwnSuccess() throws {
        let combined = Response.all([Response.succeeded(1, on: .immediate)], on: .immediate)
        let heard = Recorder<Double>()
        combined.onProgress { heard.record($0) }
        #expect(heard.values == [1.0])
        #expect(try combined.value == [1])
    }

    @Test func all_thatFailed_hearsNothingMore_whenItsOtherInputsReportProgress() {
        let (first, firstResolver) = Response<Int>.pending(on: .immediate)
        let (second, secondResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(secondResolver) {} }
        let combined = Response.all([first, second], on: .immediate)
        let second2 = second.map { $0 }  // keeps the second one alive past the failure
        let heard = Recorder<Double>()
        combined.onProgress { heard.record($0) }
        combined.onFailure { _ in }
        secondResolver.reportProgress(0.5)
        firstResolver.fail(TestError())
        secondResolver.reportProgress(0.9)
        #expect(heard.values == [0.25])
        #expect(combined.progress == 0.25)
        withExtendedLifetime(second2) {}
    }

    @Test func all_deliversItsProgress_onItsOwnExecutor() {
        let executor = ManualExecutor()
        let (input, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }
        let combined = Response.all([input], on: executor.executor)
        let heard = Recorder<Double>()
        combined.onProgress { heard.record($0) }
        resolver.reportProgress(0.5)
        #expect(heard.values.isEmpty)
        _ = executor.runAll()
        #expect(heard.values == [0.5])
    }

    @MainActor
    @Test func aMainActorObserver_hearsProgress_onTheMainActor() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }
        var heard: [Double] = []
        response.mainActor.onProgress { heard.append($0) }
        resolver.reportProgress(0.5)
        #expect(heard == [0.5])
    }
}
