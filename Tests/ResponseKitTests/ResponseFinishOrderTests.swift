import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// The order of a finish (issue 37): the outcome is decided, the cancellation handlers run, the
/// claims are released, and only then do callbacks run, even one registered in the middle by
/// another thread. And a failed response nobody observes is reported, whatever operator made it.
struct ResponseFinishOrderTests {
    struct Failure: Error {}

    // MARK: - handlers before callbacks

    /// A response with no callback when it is cancelled: a callback registered while its
    /// cancellation handler still runs waits for the handler to return.
    @Test func aCallbackRegisteredWhileACancellationHandlerRuns_runsAfterIt() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let handlerEntered = DispatchSemaphore(value: 0)
        let releaseHandler = DispatchSemaphore(value: 0)
        let handlerReturned = LockedBox.make(false)
        resolver.onCancel {
            handlerEntered.signal()
            // Generous: only a broken order leaves the handler waiting this long.
            _ = releaseHandler.wait(timeout: .now() + 30)
            handlerReturned.withLock { $0 = true }
        }
        DispatchQueue.global().async { response.cancel() }
        handlerEntered.wait()
        let sawHandlerReturned = Response<Bool>.pending(on: .immediate)
        response.onFailure { _ in sawHandlerReturned.resolver.succeed(handlerReturned.withLock { $0 }) }
        releaseHandler.signal()
        #expect(
            try sawHandlerReturned.response.value, "a failure callback ran before the cancellation handler returned")
        withExtendedLifetime(resolver) {}
    }

    /// The same for a response derived with claims on its inputs (a race): a callback registered
    /// while its finish releases those claims runs after every loser was cancelled.
    @Test func aRacesCallback_registeredDuringItsFinish_runsAfterEveryLoserWasCancelled() throws {
        let winner = Response<Int>.pending(on: .immediate)
        let firstLoser = Response<Int>.pending(on: .immediate)
        let secondLoser = Response<Int>.pending(on: .immediate)
        let handlerEntered = DispatchSemaphore(value: 0)
        let releaseHandler = DispatchSemaphore(value: 0)
        firstLoser.resolver.onCancel {
            handlerEntered.signal()
            // Generous: only a broken order leaves the handler waiting this long.
            _ = releaseHandler.wait(timeout: .now() + 30)
        }
        let race = Response.race([winner.response, firstLoser.response, secondLoser.response], on: .immediate)
        DispatchQueue.global().async { winner.resolver.succeed(1) }
        handlerEntered.wait()  // the race has its outcome; its finish is cancelling the losers
        let secondLoserWasDone = Response<Bool>.pending(on: .immediate)
        race.onCompletion { _ in secondLoserWasDone.resolver.succeed(secondLoser.response.isDone) }
        releaseHandler.signal()
        #expect(try secondLoserWasDone.response.value, "a race's callback ran before its losers were cancelled")
        #expect(secondLoser.resolver.succeed(2) == false)
    }

    // MARK: - main-actor callbacks keep their order

    /// Found by the random-program checker: an `.immediate` response resolved on another thread
    /// hops its main-actor callback to the main queue; one registered afterwards on the main
    /// queue ran inline at once, ahead of the earlier one still queued there.
    @MainActor @Test func aMainActorCallbackRegisteredOnTheMainQueue_runsAfterOnesStillQueuedThere() async throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let order = Recorder<Int>()
        response.mainActor.onResult { _ in order.record(1) }
        let resolved = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            resolver.succeed(7)  // the first callback is queued for the main queue, which is busy here
            resolved.signal()
        }
        // Generous: only a broken resolver leaves this waiting.
        #expect(resolved.wait(timeout: .now() + 30) == .success)
        response.mainActor.onResult { _ in order.record(2) }
        await withCheckedContinuation { continuation in
            response.mainActor.onResult { _ in continuation.resume() }
        }
        #expect(order.values == [1, 2])
    }

    /// The same order does not cost a presenter its inline delivery: with nothing of this
    /// response queued, a main-actor callback registered on the main queue runs at once.
    @MainActor @Test func aMainActorCallbackOfAResponseWithNothingQueued_stillRunsInline() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        resolver.succeed(7)
        let ran = Recorder<Int>()
        response.mainActor.onResult { _ in ran.record(1) }
        #expect(ran.values == [1])
    }

    // MARK: - unobserved failures of every operator

    @Test func aTimedOutResponseNobodyObserves_isReportedAsUnobserved() {
        let scheduler = ManualScheduler()
        let problems = ResponseChecks.run {
            let (slow, resolver) = Response<Int>.pending(on: .immediate)
            _ = slow.timeout(after: .seconds(1), scheduler: scheduler)
            scheduler.advance(by: .seconds(1))
            withExtendedLifetime(resolver) {}
        }
        #expect(problems.map(\.kind) == [.unobservedFailure])
    }

    @Test func aTimedOutResponseSomeoneObserves_isNotReported() {
        let scheduler = ManualScheduler()
        let problems = ResponseChecks.run {
            let (slow, resolver) = Response<Int>.pending(on: .immediate)
            let timed = slow.timeout(after: .seconds(1), scheduler: scheduler)
            scheduler.advance(by: .seconds(1))
            #expect(timed.error as? ResponseError == .deadlineExceeded)
            withExtendedLifetime(resolver) {}
        }
        #expect(problems.isEmpty)
    }

    @Test func aDelayedFailureNobodyObserves_isReportedAsUnobserved() {
        let scheduler = ManualScheduler()
        let problems = ResponseChecks.run {
            _ = Response<Int>.failed(Failure(), on: .immediate).delay(by: .seconds(1), scheduler: scheduler)
            scheduler.advance(by: .seconds(1))
        }
        #expect(problems.map(\.kind) == [.unobservedFailure])
    }
}
