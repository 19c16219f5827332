import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// `Response.allSettled`: every outcome, in order, and it never fails on account of its inputs.
struct ResponseSettledTests {
    init() { startRecordingDiagnostics() }

    /// The outcomes as text, so that they compare with `==`.
    static func describe(_ outcomes: [Result<Int, any Error>]) -> [String] {
        outcomes.map { outcome in
            switch outcome {
            case .success(let value): "\(value)"
            case .failure(let error as TestError): "error \(error.code)"
            case .failure(let error): "\(type(of: error))"
            }
        }
    }

    // MARK: - Outcomes and order

    @Test func givesEveryOutcome_inInputOrder_whateverOrderTheyFinishIn() throws {
        let inputs = (0..<4).map { _ in Response<Int>.pending(on: .immediate) }
        let settled = Response.allSettled(inputs.map(\.response), on: .immediate)
        inputs[2].resolver.succeed(20)
        inputs[0].resolver.fail(TestError(code: 1))
        inputs[3].resolver.succeed(30)
        #expect(!settled.isDone)
        inputs[1].resolver.succeed(10)
        #expect(Self.describe(try settled.value) == ["error 1", "10", "20", "30"])
    }

    @Test func waitsForEveryInput_evenAfterAFailure() {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        let settled = Response.allSettled([a, b], on: .immediate)
        resolveA.fail(TestError())
        #expect(!settled.isDone)
        #expect(!resolveB.isCancelled, "a failure cancels nothing")
        resolveB.succeed(2)
        #expect(settled.isSuccessful)
    }

    @Test func neverFails_whenEveryInputFails() throws {
        let settled = Response.allSettled(
            [Response<Int>.failed(TestError(code: 1), on: .immediate), .failed(TestError(code: 2), on: .immediate)],
            on: .immediate
        )
        #expect(Self.describe(try settled.value) == ["error 1", "error 2"])
    }

    @Test func anInputCancelledElsewhere_isACancellationInTheOutcomes() throws {
        let (a, aResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(aResolver) {} }  // cancelled, never resolved
        let settled = Response.allSettled(a, .succeeded(1, on: .immediate), on: .immediate)
        a.cancel()
        #expect(Self.describe(try settled.value) == ["CancellationError", "1"])
    }

    @Test func ofNothing_succeedsWithAnEmptyArray() throws {
        #expect(try Response.allSettled([Response<Int>](), on: .immediate).value.isEmpty)
    }

    @Test(arguments: 0..<6)
    func ofTheSameFailedResponseListedNTimes_succeedsWithNFailures(count: Int) throws {
        // swift-nio's testAndAllCompleteWithPreFailedFutures.
        let failed = Response<Int>.failed(TestError(code: 4), on: .immediate)
        let outcomes = try Response.allSettled(Array(repeating: failed, count: count), on: .immediate).value
        #expect(Self.describe(outcomes) == Array(repeating: "error 4", count: count))
    }

    @Test func ofAThousand_resolvedFromManyThreads_keepsOrder() throws {
        let inputs = (0..<1_000).map { _ in Response<Int>.pending(on: .immediate) }
        let settled = Response.allSettled(inputs.map(\.response), on: .immediate)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            if index.isMultiple(of: 3) {
                inputs[index].resolver.fail(TestError(code: index))
            } else {
                inputs[index].resolver.succeed(index)
            }
        }
        let expected = (0..<1_000).map { $0.isMultiple(of: 3) ? "error \($0)" : "\($0)" }
        #expect(Self.describe(try settled.value) == expected)
    }

    @Test func deliversOnItsExecutor() {
        let manual = ManualExecutor()
        let settled = Response.allSettled([Response<Int>.succeeded(1, on: .immediate)], on: manual.executor)
        let seen = Recorder<Int>()
        settled.onCompletion { seen.record($0.count) }
        #expect(seen.values.isEmpty)
        #expect(manual.runAll() == 1)
        #expect(seen.values == [1])
    }

    // MARK: - Cancellation

    @Test func cancellingIt_cancelsThePendingInputs_andFailsItWithCancellation() {
        let inputs = (0..<3).map { _ in Response<Int>.pending(on: .immediate) }
        inputs[0].resolver.succeed(0)
        let settled = Response.allSettled(inputs.map(\.response), on: .immediate)
        settled.cancel()
        #expect(settled.error is CancellationError)
        #expect(inputs[1].resolver.isCancelled)
        #expect(inputs[2].resolver.isCancelled)
        #expect(inputs[0].response.isSuccessful)
    }

    @Test func cancellingIt_sparesAnInputThatSomethingElseWaitsOn() {
        let (shared, sharedResolver) = Response<Int>.pending(on: .immediate)
        let other = shared.map { $0 + 1 }
        let settled = Response.allSettled([shared], on: .immediate)
        settled.cancel()
        #expect(!sharedResolver.isCancelled)
        sharedResolver.succeed(1)
        #expect(other.isSuccessful)
    }

    // MARK: - Observation and progress

    @Test func failedInputs_areObserved_soNoneIsReportedAsAnUnobservedFailure() throws {
        let creationLine: UInt
        let settled: Response<[Result<Int, any Error>]>
        do {
            let (input, resolver) = Response<Int>.pending(on: .immediate)
            creationLine = UInt(#line) - 1
            settled = Response.allSettled([input], on: .immediate)
            resolver.fail(TestError(code: 3))
        }
        #expect(Self.describe(try settled.value) == ["error 3"])
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    @Test func progress_isTheMeanOfTheInputs_aFailedInputCountingAsDone() {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        let (c, resolveC) = Response<Int>.pending(on: .immediate)
        let settled = Response.allSettled([a, b, c], on: .immediate)
        let heard = Recorder<Double>()
        settled.onProgress { heard.record($0) }

        resolveA.reportProgress(0.6)
        resolveB.fail(TestError())
        #expect(heard.values.last == (0.6 + 1) / 3)
        resolveA.succeed(1)
        #expect(heard.values.last == 2.0 / 3)
        resolveC.succeed(3)
        #expect(heard.values.last == 1)
        #expect(heard.values == heard.values.sorted(), "never backwards")
    }

    @Test func progress_countsAnInputCancelledElsewhereAsDone() {
        let (a, resolveA) = Response<Int>.pending(on: .immediate)
        let (b, resolveB) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolveA) {} }
        let settled = Response.allSettled([a, b], on: .immediate)
        let heard = Recorder<Double>()
        settled.onProgress { heard.record($0) }
        a.cancel()
        #expect(heard.values == [0.5])
        resolveB.succeed(2)
        #expect(heard.values == [0.5, 1.0])
    }

    @Test func ofAHundredThousandDoneAlready_keepsOrder_andTheStackFlat() throws {
        let inputs = (0..<100_000).map { Response.succeeded($0, on: .immediate) }
        let settled = Response.allSettled(inputs, on: .immediate)
        let values = try settled.value.map { try $0.get() }
        #expect(values == Array(0..<100_000))
    }
}
