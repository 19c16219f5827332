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
        let failures = Recorder<String>()
        b.onFailure { failures.record("b: \(type(of: $0))") }
        let combined = Response.all([a, b, c], on: .immediate)

        resolveA.succeed(1)
        resolveC.fail(TestError(code: 3))

        #expect(combined.error as? TestError == TestError(code: 3))
        #expect(resolveB.isCancelled)
        #expect(failures.values == ["b: CancellationError"])
        #expect(!resolveC.isCancelled)
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
