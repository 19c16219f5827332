import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

struct ResponseCombineTests {
    // MARK: - all

    @Test func all_keepsOrder_whateverOrderTheyFinishIn() throws {
        let pairs = (0..<5).map { _ in Response<Int>.pending(on: .immediate) }
        let combined = Response.all(pairs.map(\.response), on: .immediate)
        for index in [3, 0, 4, 1, 2] { pairs[index].resolver.succeed(index * 10) }
        #expect(try combined.value == [0, 10, 20, 30, 40])
    }

    @Test func all_isPending_untilEveryResponseSucceeds() {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, bResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(bResolver) {} }  // pending on purpose: never resolved, never abandoned
        let combined = Response.all([a, b], on: .immediate)
        resolveA.succeed(1)
        #expect(!combined.isDone)
    }

    @Test func all_firstFailureWins_andTheRestAreCancelled() {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        let (c, resolveC) = Response<Int>.pending(on: .immediate)
        let combined = Response.all([a, b, c], on: .immediate)

        resolveA.succeed(1)
        resolveC.fail(TestError(code: 3))

        #expect(combined.error as? TestError == TestError(code: 3))
        #expect(resolveB.isCancelled)
        #expect(b.error is CancellationError)
        #expect(!resolveC.isCancelled)
    }

    @Test func all_firstFailure_leavesAnInputSomeoneElseObserves_running() throws {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        let failures = Recorder<String>()
        b.onFailure { failures.record("b: \(type(of: $0))") }  // a presenter of its own
        let combined = Response.all([a, b], on: .immediate)

        resolveA.fail(TestError(code: 1))

        #expect(combined.error as? TestError == TestError(code: 1))
        #expect(!resolveB.isCancelled)
        #expect(failures.values.isEmpty)
        resolveB.succeed(2)
        #expect(try b.value == 2)
    }

    @Test func all_stragglersThatFailAfterTheFirstFailure_areNotReported() {
        // PromiseKit's testUnhandledErrorHandlerDoesNotFireForStragglers.
        startRecordingDiagnostics()
        let (straggler, stragglerResolver) = Response<Int>.pending(on: .immediate)
        let combined = Response.all([.failed(TestError(code: 1), on: .immediate), straggler], on: .immediate)
        #expect(combined.error as? TestError == TestError(code: 1))
        #expect(!stragglerResolver.fail(TestError(code: 2)))  // work that did not hear of the cancellation
        #expect(diagnostics(forResponseCreatedAt: straggler.line).isEmpty)
    }

    @Test func all_ofNothing_succeedsWithAnEmptyArray() throws {
        let combined = Response.all([Response<Int>](), on: .immediate)
        #expect(try combined.value == [])
    }

    @Test func all_cancelled_cancelsEveryInput() {
        let inputs = (0..<3).map { _ in Response<Int>.pending(on: .immediate) }
        let combined = Response.all(inputs.map(\.response), on: .immediate)
        combined.cancel()
        #expect(inputs.allSatisfy { $0.resolver.isCancelled })
    }

    @Test func all_ofAThousand_fromManyThreads() throws {
        let inputs = (0..<1_000).map { _ in Response<Int>.pending(on: .immediate) }
        let combined = Response.all(inputs.map(\.response), on: .immediate)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { inputs[$0].resolver.succeed($0) }
        #expect(try combined.value == Array(0..<1_000))
    }

    @Test func all_ofAHundredThousand_resolvedInlineInReverse_keepsOrder_andTheStackFlat() throws {
        let inputs = (0..<100_000).map { _ in Response<Int>.pending(on: .immediate) }
        let combined = Response.all(inputs.map(\.response), on: .immediate)
        for index in (0..<100_000).reversed() { inputs[index].resolver.succeed(index) }
        #expect(try combined.value == Array(0..<100_000))
    }

    @Test func all_ofResponsesAlreadyDone_andPendingOnes_mixed_keepsOrder() throws {
        // swift-nio's whenAllSucceed / andAllComplete over pre-completed and pending futures.
        let done = Response.succeeded(0, on: .immediate)
        let pending = (0..<3).map { _ in Response<Int>.pending(on: .immediate) }
        let combined = Response.all([done, pending[0].response, done, pending[1].response, pending[2].response])
        for (index, pair) in pending.enumerated().reversed() {
            #expect(!combined.isDone)
            pair.resolver.succeed(index + 1)
        }
        #expect(try combined.value == [0, 1, 0, 2, 3])
    }

    @Test func all_ofTheSameResponseListedTwice_givesItsValueTwice() throws {
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        let combined = Response.all([shared, shared, shared], on: .immediate)
        resolver.succeed(5)
        #expect(try combined.value == [5, 5, 5])
    }

    @Test func all_cancelled_cancelsAResponseListedTwice() {
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        Response.all([shared, shared], on: .immediate).cancel()
        #expect(resolver.isCancelled)
    }

    @Test func all_whenSeveralHaveFailedAlready_failsWithTheFirstListed() {
        let combined = Response.all(
            [.succeeded(1, on: .immediate), .failed(TestError(code: 2), on: .immediate), .failed(TestError(code: 3))],
            on: .immediate)
        #expect(combined.error as? TestError == TestError(code: 2))
    }

    @Test func all_andZip_keepNilValues() throws {
        // google/promises' `all` over [42, 13, nil].
        let optionals: [Response<Int?>] = [.succeeded(42, on: .immediate), .succeeded(13), .succeeded(nil)]
        #expect(try Response.all(optionals, on: .immediate).value == [42, 13, nil])
        let zipped = Response.zip(
            Response<Int>.succeeded(1), Response<String?>.succeeded(nil), Response<Void>.succeeded(()), on: .immediate)
        let (number, nothing, _) = try zipped.value
        #expect(number == 1)
        #expect(nothing == nil)
    }

    // MARK: - zip

    @Test func zip_combinesDifferentTypes() throws {
        let (number, resolveNumber) = Response<Int>.pending(on: .immediate)
        let (text, resolveText) = Response<String>.pending(on: .immediate)
        let flag = Response.succeeded(true, on: .immediate)
        let zipped = Response.zip(number, text, flag, on: .immediate)
        resolveText.succeed("b")
        #expect(!zipped.isDone)
        resolveNumber.succeed(1)
        let (a, b, c) = try zipped.value
        #expect(a == 1)
        #expect(b == "b")
        #expect(c)
    }

    @Test func zip_instanceForm_pairsWithThisResponse() throws {
        let pair = Response.succeeded(1, on: .immediate).zip(Response.succeeded("one", on: .immediate))
        let (number, name) = try pair.value
        #expect(number == 1)
        #expect(name == "one")
    }

    @Test func zip_failsWithTheFirstFailure_andCancelsTheRest() {
        let (number, resolveNumber) = Response<Int>.pending(on: .immediate)
        let (text, textResolver) = Response<String>.pending(on: .immediate)
        defer { withExtendedLifetime(textResolver) {} }  // pending on purpose: never resolved, never abandoned
        let zipped = Response.zip(number, text, on: .immediate)
        resolveNumber.fail(TestError(code: 8))
        #expect(zipped.error as? TestError == TestError(code: 8))
        #expect(text.isCancelled)
    }

    @Test func zip_ofNothing_succeedsAtOnce() throws {
        let zipped: Response<Void> = Response.zip(on: .immediate)
        #expect(zipped.isSuccessful)
        try zipped.value
    }

    @Test func zip_whenTheLaterInputFailsFirst_failsWithItsError() {
        // BrightFutures' zip: whichever fails, its error is the zip's.
        let (number, numberResolver) = Response<Int>.pending(on: .immediate)
        let (text, textResolver) = Response<String>.pending(on: .immediate)
        let zipped = number.zip(text)
        textResolver.fail(TestError(code: 2))
        #expect(zipped.error as? TestError == TestError(code: 2))
        #expect(numberResolver.isCancelled)
    }

    // MARK: - race

    @Test func race_finishesWithTheFirstOutcome_andCancelsTheOthers() throws {
        let (slow, resolveSlow) = Response<String>.pending(on: .immediate)
        let (fast, resolveFast) = Response<String>.pending(on: .immediate)
        let winner = Response.race([slow, fast], on: .immediate)
        resolveFast.succeed("fast")
        #expect(try winner.value == "fast")
        #expect(resolveSlow.isCancelled)
    }

    @Test func race_aFailureCanWin() {
        let (slow, slowResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(slowResolver) {} }  // pending on purpose: never resolved, never abandoned
        let failing = Response<Int>.failed(TestError(code: 2), on: .immediate)
        let winner = Response.race([slow, failing], on: .immediate)
        #expect(winner.error as? TestError == TestError(code: 2))
    }

    @Test func race_ofNothing_failsClearly() {
        let winner = Response.race([Response<Int>](), on: .immediate)
        #expect(winner.error as? ResponseError == .noResponses)
    }

    @Test func race_ofDelayedValues_isTheSoonest_andDropsTheOthersTimers() throws {
        // PromiseKit's race over after(...).map { ... }.
        let scheduler = ManualScheduler()
        let winner = Response.race(
            [
                Response.succeeded(1, on: .immediate).delay(by: .seconds(1), scheduler: scheduler),
                Response.succeeded(2, on: .immediate).delay(by: .milliseconds(10), scheduler: scheduler),
            ],
            on: .immediate)
        scheduler.advance(by: .milliseconds(10))
        #expect(try winner.value == 2)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func race_ofResponsesAlreadyDone_isTheFirstListed() throws {
        // PromiseKit's race and BrightFutures' firstCompleted over futures already completed.
        let winner = Response.race(
            [.succeeded(1, on: .immediate), .failed(TestError(code: 2), on: .immediate), .succeeded(3)],
            on: .immediate)
        #expect(try winner.value == 1)
        let failure = Response.race([.failed(TestError(code: 2), on: .immediate), .succeeded(3)], on: .immediate)
        #expect(failure.error as? TestError == TestError(code: 2))
    }

    @Test func race_whoseLosersFailLater_staysWithTheWinner_andReportsNothing() throws {
        startRecordingDiagnostics()
        let (slow, resolveSlow) = Response<Int>.pending(on: .immediate)
        let other = slow.map { $0 }  // keeps the loser going
        let winner = Response.race([.succeeded(1, on: .immediate), slow], on: .immediate)
        resolveSlow.fail(TestError(code: 9))
        #expect(try winner.value == 1)
        #expect(other.error as? TestError == TestError(code: 9))
        #expect(diagnostics(forResponseCreatedAt: slow.line).isEmpty)
        #expect(diagnostics(forResponseCreatedAt: winner.line).isEmpty)
    }

    // MARK: - any

    @Test func any_succeedsWithTheFirstSuccess_ignoringEarlierFailures() throws {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        let (c, resolveC) = Response<Int>.pending(on: .immediate)
        let first = Response.any([a, b, c], on: .immediate)
        resolveA.fail(TestError(code: 1))
        #expect(!first.isDone)
        resolveB.succeed(2)
        #expect(try first.value == 2)
        #expect(resolveC.isCancelled)
    }

    @Test func any_failsOnlyWhenAllFail_withEveryError() throws {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        let first = Response.any([a, b], on: .immediate)
        resolveB.fail(TestError(code: 2))
        resolveA.fail(TestError(code: 1))
        let aggregate = try #require(first.error as? ResponseAggregateError)
        #expect(aggregate.errors.compactMap { ($0 as? TestError)?.code } == [1, 2])
    }

    @Test func any_ofNothing_failsClearly() {
        let first = Response.any([Response<Int>](), on: .immediate)
        #expect(first.error as? ResponseError == .noResponses)
    }

    @Test func any_ofDelayedOutcomes_isTheSoonestSuccess_pastEarlierFailures() throws {
        // PromiseKit's race(fulfilled:): failures at 1, 2 and 3 s, values 1 at 5 s and 2 at 4 s.
        let scheduler = ManualScheduler()
        func after(_ seconds: Int64, _ outcome: Result<Int, any Error>) -> Response<Int> {
            let response: Response<Int> =
                switch outcome {
                case .success(let value): .succeeded(value, on: .immediate)
                case .failure(let error): .failed(error, on: .immediate)
                }
            return response.delay(by: .seconds(seconds), scheduler: scheduler)
        }
        let first = Response.any(
            [
                after(1, .failure(TestError(code: 1))), after(2, .failure(TestError(code: 2))), after(5, .success(1)),
                after(4, .success(2)), after(3, .failure(TestError(code: 3))),
            ],
            on: .immediate)
        scheduler.advance(by: .seconds(3))
        #expect(!first.isDone)
        scheduler.advance(by: .seconds(1))
        #expect(try first.value == 2)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func any_ofResponsesAlreadyDone_isTheFirstSuccessListed() throws {
        let first = Response.any(
            [.failed(TestError(code: 1), on: .immediate), .succeeded(2, on: .immediate), .succeeded(3)],
            on: .immediate)
        #expect(try first.value == 2)
    }

    @Test func any_cancelled_cancelsEveryCandidate() {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        Response.any([a, b], on: .immediate).cancel()
        #expect(resolveA.isCancelled)
        #expect(resolveB.isCancelled)
    }

    @Test func any_whenACandidateIsCancelledElsewhere_andTheOthersFail_listsTheCancellation() throws {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolveA) {} }  // cancelled, never resolved
        let first = Response.any([a, b], on: .immediate)
        a.cancel()
        #expect(!first.isDone)
        resolveB.fail(TestError(code: 2))
        let aggregate = try #require(first.error as? ResponseAggregateError)
        #expect(aggregate.errors.first is CancellationError)
        #expect(aggregate.errors.last as? TestError == TestError(code: 2))
    }

    // MARK: - listed one by one

    @Test func variadicForms_matchTheCollectionForms() throws {
        let all = Response.all(Response.succeeded(1, on: .immediate), .succeeded(2, on: .immediate), on: .immediate)
        let race = Response.race(
            Response.succeeded("a", on: .immediate), Response<String>.pending(on: .immediate).response)
        let any = Response.any(Response<Int>.failed(TestError(), on: .immediate), .succeeded(5, on: .immediate))
        #expect(try all.value == [1, 2])
        #expect(try race.value == "a")
        #expect(try any.value == 5)
    }

    @Test func cancellingARace_cancelsEveryCompetitor() {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        Response.race([a, b], on: .immediate).cancel()
        #expect(resolveA.isCancelled)
        #expect(resolveB.isCancelled)
    }

    @Test func cancellingAZip_cancelsItsInputs() {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<String>.pending(on: .immediate)
        Response.zip(a, b, on: .immediate).cancel()
        #expect(resolveA.isCancelled)
        #expect(resolveB.isCancelled)
    }
}
