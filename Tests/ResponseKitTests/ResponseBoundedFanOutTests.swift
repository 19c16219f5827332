import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// `Response.all(_:maxInFlight:_:)`: a response per element, never more than n pending at once.
struct ResponseBoundedFanOutTests {
    /// Makes a pending response per element, and logs each start (`+i`) and finish (`-i`).
    final class Work: Sendable {
        let started = Recorder<Resolver<Int>>()
        let log = Recorder<Int>()

        func make(_ index: Int) -> Response<Int> {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            log.record(index + 1)
            started.record(resolver)
            // Logs the end before the fan-out hears of it. A derived response, not a callback: a
            // callback would wait for the response too, and keep the fan-out from cancelling it.
            return response.always { _ in self.log.record(-(index + 1)) }
        }

        /// The most responses that were pending at once.
        var mostInFlight: Int {
            var running = 0
            var most = 0
            for event in log.values {
                running += event > 0 ? 1 : -1
                most = max(most, running)
            }
            return most
        }
    }

    // MARK: - At most n in flight

    @Test func startsNAtOnce_andOneMoreAsEachFinishes() throws {
        let work = Work()
        let values = Response.all(0..<6, maxInFlight: 3, on: .immediate) { work.make($0) }
        #expect(work.started.count == 3)

        work.started.values[1].succeed(10)
        #expect(work.started.count == 4)
        work.started.values[0].succeed(0)
        work.started.values[3].succeed(30)
        #expect(work.started.count == 6)
        for index in [5, 2, 4] { work.started.values[index].succeed(index * 10) }

        #expect(try values.value == [0, 10, 20, 30, 40, 50])
        #expect(work.mostInFlight == 3)
    }

    @Test func neverHasMoreThanNInFlight_whenResponsesFinishOnManyThreads() throws {
        let log = Recorder<Int>()
        let values = Response.all(0..<300, maxInFlight: 4, on: .immediate) { index in
            log.record(1)
            return Response<Int>(on: .global(), executor: .immediate) { index }.always { log.record(-1) }
        }
        #expect(try values.value == Array(0..<300))
        var running = 0
        var most = 0
        for event in log.values {
            running += event
            most = max(most, running)
        }
        #expect(most <= 4)
        #expect(log.count == 600)
    }

    @Test func responsesThatAreDoneAlready_keepTheStackFlat() throws {
        let values = Response.all(0..<100_000, maxInFlight: 1, on: .immediate) {
            Response.succeeded($0, on: .immediate)
        }
        #expect(try values.value.count == 100_000)
    }

    @Test func ofNothing_succeedsWithAnEmptyArray_withoutCallingTheFactory() throws {
        let calls = Recorder<Int>()
        let values = Response.all([Int](), maxInFlight: 2, on: .immediate) { index in
            calls.record(index)
            return Response.succeeded(index, on: .immediate)
        }
        #expect(try values.value.isEmpty)
        #expect(calls.count == 0)
    }

    @Test func moreRoomThanElements_startsThemAll() {
        let work = Work()
        _ = Response.all(0..<3, maxInFlight: 10, on: .immediate) { work.make($0) }
        #expect(work.started.count == 3)
        for resolver in work.started.values { resolver.succeed(0) }
    }

    @Test func ofOneAtATime_startsEachOnlyAfterThePreviousSucceeded_inOrder() throws {
        let work = Work()
        let values = Response.all(0..<4, maxInFlight: 1, on: .immediate) { work.make($0) }
        for index in 0..<4 {
            #expect(work.started.count == index + 1)
            work.started.values[index].succeed(index * 10)
        }
        #expect(work.log.values == [1, -1, 2, -2, 3, -3, 4, -4])
        #expect(try values.value == [0, 10, 20, 30])
    }

    @Test func callsTheFactoryOncePerElement_inTheOrderOfTheElements() throws {
        let calls = Recorder<Int>()
        let values = Response.all([3, 1, 2], maxInFlight: 2, on: .immediate) { element in
            calls.record(element)
            return Response.succeeded(element, on: .immediate)
        }
        #expect(try values.value == [3, 1, 2])
        #expect(calls.values == [3, 1, 2])
    }

    @Test func aLimitBelowOne_stopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = Response.all([1], maxInFlight: 0, on: .immediate) { Response.succeeded($0, on: .immediate) }
        }
    }

    // MARK: - Failure

    @Test func theFirstFailure_failsTheResult_cancelsThoseInFlight_andStartsNoMore() {
        let work = Work()
        let values = Response.all(0..<10, maxInFlight: 3, on: .immediate) { work.make($0) }
        work.started.values[1].fail(TestError(code: 1))

        #expect(values.error as? TestError == TestError(code: 1))
        #expect(work.started.values[0].isCancelled)
        #expect(work.started.values[2].isCancelled)
        #expect(work.started.count == 3)
    }

    @Test func aThrowingFactory_failsTheResult_andCancelsThoseInFlight() {
        let work = Work()
        let values = Response.all(0..<10, maxInFlight: 3, on: .immediate) { index in
            if index == 3 { throw TestError(code: 3) }
            return work.make(index)
        }
        work.started.values[0].succeed(0)  // makes room for element 3, whose factory throws
        #expect(values.error as? TestError == TestError(code: 3))
        #expect(work.started.values[1].isCancelled)
        #expect(work.started.values[2].isCancelled)
        #expect(work.started.count == 3)
    }

    @Test func ofOneAtATime_aFailure_stopsTakingElements() {
        let calls = Recorder<Int>()
        let values = Response.all(0..<5, maxInFlight: 1, on: .immediate) { index -> Response<Int> in
            calls.record(index)
            if index == 1 { return .failed(TestError(code: 1), on: .immediate) }
            return .succeeded(index, on: .immediate)
        }
        #expect(values.error as? TestError == TestError(code: 1))
        #expect(calls.values == [0, 1])
    }

    @Test func aResponseThatFailedAlready_amongTheFirst_stopsTheRestOfTheFirstFromStarting() {
        let calls = Recorder<Int>()
        let values = Response.all(0..<5, maxInFlight: 3, on: .immediate) { index -> Response<Int> in
            calls.record(index)
            return .failed(TestError(code: index), on: .immediate)
        }
        #expect(values.error as? TestError == TestError(code: 0))
        #expect(calls.values == [0])
    }

    @Test func aFactoryThatThrowsForTheFirstElement_isCalledNoMore() {
        let calls = Recorder<Int>()
        let values = Response.all(0..<5, maxInFlight: 2, on: .immediate) { index -> Response<Int> in
            calls.record(index)
            throw TestError(code: index)
        }
        #expect(values.error as? TestError == TestError(code: 0))
        #expect(calls.values == [0])
    }

    @Test func aFailureAfterTheResultFailed_changesNothing_andIsNotReported() {
        let work = Work()
        let values = Response.all(0..<3, maxInFlight: 3, on: .immediate) { work.make($0) }
        let other = work.started.values[2].response.map { $0 }  // so that it is not cancelled
        work.started.values[0].fail(TestError(code: 1))
        work.started.values[2].fail(TestError(code: 2))
        #expect(values.error as? TestError == TestError(code: 1))
        other.onFailure { _ in }
    }

    @Test func theCancelledAreGone_beforeTheResultsFailureCallbacksRun() {
        let work = Work()
        let values = Response.all(0..<2, maxInFlight: 2, on: .immediate) { work.make($0) }
        let seenCancelled = Recorder<Bool>()
        values.onFailure { _ in seenCancelled.record(work.started.values[1].isCancelled) }
        work.started.values[0].fail(TestError())
        #expect(seenCancelled.values == [true])
    }

    // MARK: - Cancellation

    @Test func cancellingTheResult_cancelsThoseInFlight_andStartsNoMore() {
        let work = Work()
        let values = Response.all(0..<10, maxInFlight: 2, on: .immediate) { work.make($0) }
        values.cancel()
        #expect(work.started.values.allSatisfy { $0.isCancelled })
        #expect(work.started.count == 2)
        #expect(values.error is CancellationError)
    }

    @Test func cancellingTheResult_fromTheFactory_stopsCallingIt() {
        let (gate, gateResolver) = Response<Int>.pending(on: .immediate)
        let later = Recorder<Int>()
        let laterResult = Recorder<Response<[Int]>>()
        let stopped = Response.all(0..<5, maxInFlight: 1, on: .immediate) { index -> Response<Int> in
            later.record(index)
            if index == 0 { return gate }
            if index == 2 { laterResult.values.first?.cancel() }
            return .succeeded(index, on: .immediate)
        }
        laterResult.record(stopped)
        gateResolver.succeed(0)
        #expect(stopped.isCancelled)
        #expect(later.values == [0, 1, 2])
    }

    @Test func cancellingTheResult_sparesAResponseThatSomethingElseWaitsOn() {
        let (shared, sharedResolver) = Response<Int>.pending(on: .immediate)
        let other = shared.map { $0 }
        let values = Response.all([0], maxInFlight: 1, on: .immediate) { _ in shared }
        values.cancel()
        #expect(!sharedResolver.isCancelled)
        sharedResolver.succeed(1)
        #expect(other.isSuccessful)
    }

    @Test func cancellingTheResultFromAnotherThread_whileResponsesFinish_leavesNothingRunning() throws {
        for _ in 0..<50 {
            let work = Work()
            let values = Response.all(0..<40, maxInFlight: 4, on: .immediate) { work.make($0) }
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    values.cancel()
                } else {
                    var next = 0
                    while next < work.started.count {
                        work.started.values[next].succeed(next)
                        next += 1
                    }
                }
            }
            #expect(values.isDone)
            #expect(work.started.values.allSatisfy { $0.response.isDone }, "none left pending")
        }
    }

    @Test func aFailedResponseMadeAfterTheFanOutStopped_isNotReportedAsUnobserved() throws {
        startRecordingDiagnostics()
        let (first, firstResolver) = Response<Int>.pending(on: .immediate)
        let result = Recorder<Response<[Int]>>()  // the fan-out, for the factory to cancel
        let lateLine = Recorder<UInt>()
        let values = Response.all(0..<2, maxInFlight: 1, on: .immediate) { index -> Response<Int> in
            guard index == 1 else { return first }
            result.values.first?.cancel()  // the fan-out stops while this factory runs
            lateLine.record(#line + 1)
            return Response<Int>.failed(TestError(code: 7), on: .immediate)
        }
        result.record(values)
        firstResolver.succeed(1)  // starts element 1, whose factory cancels the fan-out

        #expect(values.isCancelled)
        let line = try #require(lateLine.values.first)
        #expect(diagnostics(forResponseCreatedAt: line).isEmpty, "the fan-out's cancellation stands for it")
    }

    // MARK: - Delivery and progress

    @Test func deliversOnItsExecutor() {
        let manual = ManualExecutor()
        let values = Response.all([1, 2], maxInFlight: 1, on: manual.executor) {
            Response.succeeded($0, on: .immediate)
        }
        let seen = Recorder<[Int]>()
        values.onCompletion { seen.record($0) }
        #expect(seen.values.isEmpty)
        #expect(manual.runAll() >= 1)
        #expect(seen.values == [[1, 2]])
    }

    @Test func progress_stopsAtTheFirstFailure_andNeverExceedsOne() {
        let work = Work()
        let values = Response.all(0..<4, maxInFlight: 2, on: .immediate) { work.make($0) }
        let heard = Recorder<Double>()
        values.onProgress { heard.record($0) }
        values.onFailure { _ in }
        work.started.values[0].succeed(0)
        let straggler = work.started.values[1].response.map { $0 }  // outlives the failure
        work.started.values[2].fail(TestError())
        work.started.values[1].succeed(1)
        #expect(heard.values == [0.25])
        #expect(values.progress == 0.25)
        withExtendedLifetime(straggler) {}
    }

    @Test func progress_isTheFractionOfElementsThatSucceeded() {
        let work = Work()
        let values = Response.all(0..<4, maxInFlight: 2, on: .immediate) { work.make($0) }
        let heard = Recorder<Double>()
        values.onProgress { heard.record($0) }
        work.started.values[0].succeed(0)
        #expect(heard.values.last == 0.25)
        work.started.values[1].succeed(1)
        #expect(heard.values.last == 0.5)
        work.started.values[2].succeed(2)
        work.started.values[3].succeed(3)
        #expect(heard.values.last == 1)
    }
}
