import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// `Response.wrap`: a call that takes a completion handler, turned into a response in one line.
struct ResponseCompletionHandlerTests {
    init() { startRecordingDiagnostics() }

    /// A callback API whose calls wait until the test calls their handlers.
    final class CallbackAPI: Sendable {
        let valueOrError = Recorder<@Sendable (Int?, (any Error)?) -> Void>()
        let result = Recorder<@Sendable (Result<Int, TestError>) -> Void>()
        let errorOnly = Recorder<@Sendable ((any Error)?) -> Void>()
        let valueOnly = Recorder<@Sendable (Int) -> Void>()
        let cancelled = Recorder<String>()

        func fetch(completion: @escaping @Sendable (Int?, (any Error)?) -> Void) { valueOrError.record(completion) }
        func fetchResult(completion: @escaping @Sendable (Result<Int, TestError>) -> Void) { result.record(completion) }
        func save(completion: @escaping @Sendable ((any Error)?) -> Void) { errorOnly.record(completion) }
        func count(completion: @escaping @Sendable (Int) -> Void) { valueOnly.record(completion) }

        /// Like `URLSession.dataTask`: returns an object that cancels the call.
        func download(completion: @escaping @Sendable (Int?, (any Error)?) -> Void) -> CallHandle {
            valueOrError.record(completion)
            return CallHandle(name: "download", api: self)
        }

        /// Returns a closure that cancels the call.
        func observe(completion: @escaping @Sendable (Int) -> Void) -> @Sendable () -> Void {
            valueOnly.record(completion)
            return { self.cancelled.record("observe") }
        }

        /// Drops its handler without ever calling it: a bug in the wrapped API.
        func forget(completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {}

        /// Calls back before returning, as a cache would; an ordinary (non-`Sendable`) handler.
        func cached(completion: (Int?, (any Error)?) -> Void) { completion(7, nil) }
    }

    struct CallHandle: ResponseCancellable {
        let name: String
        let api: CallbackAPI
        func cancel() { api.cancelled.record(name) }
    }

    // MARK: - (value, error)

    @Test func valueOrErrorHandler_succeedsWithTheValue_whenCalledFromAnotherThread() throws {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.fetch(completion: handler) }
        #expect(!response.isDone)
        DispatchQueue.global().async { api.valueOrError.values[0](42, nil) }
        #expect(try response.value == 42)
    }

    @Test func valueOrErrorHandler_failsWithTheError_evenWhenAValueCameToo() {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.fetch(completion: handler) }
        api.valueOrError.values[0](1, TestError(code: 5))
        #expect(response.error as? TestError == TestError(code: 5))
    }

    @Test func valueOrErrorHandler_calledWithNeither_failsWithNeitherValueNorError() {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.fetch(completion: handler) }
        api.valueOrError.values[0](nil, nil)
        #expect(response.error as? ResponseError == .neitherValueNorError)
        #expect("\(ResponseError.neitherValueNorError)".contains("neither a value nor an error"))
    }

    @Test func aHandlerCalledBeforeTheCallReturns_finishesTheResponse() throws {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.cached(completion: handler) }
        #expect(try response.value == 7)
    }

    // MARK: - Result, (Error?), (Value)

    @Test func resultHandler_finishesWithTheResult_ofAnyFailureType() throws {
        let api = CallbackAPI()
        let succeeding = Response<Int>.wrap(on: .immediate) { handler in api.fetchResult(completion: handler) }
        let failing = Response<Int>.wrap(on: .immediate) { handler in api.fetchResult(completion: handler) }
        api.result.values[0](.success(3))
        api.result.values[1](.failure(TestError(code: 9)))
        #expect(try succeeding.value == 3)
        #expect(failing.error as? TestError == TestError(code: 9))
    }

    @Test func errorHandler_succeedsOnNil_andFailsOnAnError() throws {
        let api = CallbackAPI()
        let saved = Response<Void>.wrap(on: .immediate) { handler in api.save(completion: handler) }
        let refused = Response<Void>.wrap(on: .immediate) { handler in api.save(completion: handler) }
        api.errorOnly.values[0](nil)
        api.errorOnly.values[1](TestError(code: 2))
        try saved.value
        #expect(refused.error as? TestError == TestError(code: 2))
    }

    @Test func valueHandler_succeedsWithTheValue() throws {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.count(completion: handler) }
        api.valueOnly.values[0](12)
        #expect(try response.value == 12)
    }

    @Test func aThrowingBody_failsTheResponse() {
        let response = Response<Int>.wrap(on: .immediate) { (_: @escaping @Sendable (Int) -> Void) in
            throw TestError(code: 4)
        }
        #expect(response.error as? TestError == TestError(code: 4))
    }

    // MARK: - Executor

    @Test func callbacksRunOnTheGivenExecutor() {
        let api = CallbackAPI()
        let manual = ManualExecutor()
        let response = Response<Int>.wrap(on: manual.executor) { handler in api.fetch(completion: handler) }
        let seen = Recorder<Int>()
        response.onCompletion { seen.record($0) }
        api.valueOrError.values[0](5, nil)
        #expect(seen.values.isEmpty)
        #expect(manual.runAll() == 1)
        #expect(seen.values == [5])
    }

    // MARK: - Called twice, never called

    @Test func aHandlerCalledTwice_keepsTheFirstResult_andIsReportedWithTheWrapSite() throws {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.fetch(completion: handler) }
        let creationLine = UInt(#line) - 1
        api.valueOrError.values[0](1, nil)
        api.valueOrError.values[0](2, nil)

        #expect(try response.value == 1)
        let reports = diagnostics(forResponseCreatedAt: creationLine)
        #expect(reports.map(\.kind) == [.resolvedTwice])
        let report = try #require(reports.first)
        #expect(
            report.message.contains(
                "made by wrap at ResponseKitTests/ResponseCompletionHandlerTests.swift:\(creationLine)"))
        #expect(report.message.contains("completion handler called again, with succeeded with 2"))
        #expect(report.message.contains("the first result (succeeded with 1) stands"))
    }

    @Test func aHandlerCalledFromManyThreadsAtOnce_finishesTheResponseOnce_andReportsEveryOtherCall() throws {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.fetch(completion: handler) }
        let creationLine = UInt(#line) - 1
        let results = Recorder<Int>()
        response.onCompletion { results.record($0) }
        let handler = api.valueOrError.values[0]
        DispatchQueue.concurrentPerform(iterations: 8) { handler($0, nil) }

        #expect(results.count == 1)
        #expect(try response.value == results.values[0])
        #expect(diagnostics(forResponseCreatedAt: creationLine).count == 7)
    }

    @Test func aHandlerThatReportsTheCancellation_isQuiet() {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.download(completion: handler) }
        let creationLine = UInt(#line) - 1
        response.cancel()
        api.valueOrError.values[0](nil, TestError(code: 99))  // the call says it was cancelled

        #expect(response.error is CancellationError)
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    @Test func aThrowAfterTheHandlerWasCalled_isReported_andTheHandlersResultStands() throws {
        let response = Response<Int>.wrap(on: .immediate) { (handler: @escaping @Sendable (Int) -> Void) in
            handler(1)
            throw TestError(code: 6)
        }
        let creationLine = UInt(#line) - 4
        #expect(try response.value == 1)
        let reports = diagnostics(forResponseCreatedAt: creationLine)
        #expect(reports.map(\.kind) == [.resolvedTwice])
        #expect(reports.first?.message.contains("throw TestError(code: 6) after its completion handler") == true)
    }

    @Test func aHandlerDroppedWithoutBeingCalled_failsTheResponseAsAbandoned() {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.forget(completion: handler) }
        let creationLine = UInt(#line) - 1
        #expect(response.error as? ResponseError == .abandoned)
        #expect(diagnostics(forResponseCreatedAt: creationLine).map(\.kind) == [.abandoned])
    }

    @Test func aHandlerTheAPIKeeps_doesNotKeepTheFinishedResponse() {
        let kept = Recorder<@Sendable (Int?, (any Error)?) -> Void>()  // an API that never lets go
        weak var weakResponse: Response<Int>?
        do {
            let response = Response<Int>.wrap(on: .immediate) { handler in kept.record(handler) }
            weakResponse = response
            kept.values[0](1, nil)
            #expect(response.isSuccessful)
        }
        #expect(kept.count == 1, "the API still holds its handler")
        #expect(weakResponse == nil, "only the value is kept for a later report, not the response")
    }

    // MARK: - Cancellation reaches the call

    @Test func cancellingTheResponse_cancelsTheHandleTheCallReturned() {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.download(completion: handler) }
        #expect(api.cancelled.values.isEmpty)
        response.cancel()
        #expect(api.cancelled.values == ["download"])
    }

    @Test func cancellingTheResponse_runsTheClosureTheCallReturned() {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in
            ResponseCancellation(api.observe(completion: handler))
        }
        response.cancel()
        #expect(api.cancelled.values == ["observe"])
    }

    @Test func cancellingAResponseDerivedFromIt_reachesTheCall() {
        let api = CallbackAPI()
        let name = Response<Int>.wrap(on: .immediate) { handler in api.download(completion: handler) }.map { "\($0)" }
        name.cancel()
        #expect(api.cancelled.values == ["download"])
    }

    @Test func cancellingTheResponse_cancelsATaskTheCallReturned() async {
        let (hold, holdResolver) = Response<Void>.pending(on: .immediate)
        let tasks = Recorder<Task<Void, Never>>()
        let response = Response<Int>.wrap(on: .immediate) { (handler: @escaping @Sendable (Int) -> Void) in
            let task = Task {
                _ = await hold.getResult()
                handler(1)
            }
            tasks.record(task)
            return task
        }
        response.cancel()
        #expect(tasks.values[0].isCancelled)
        holdResolver.succeed()  // lets the task end, cancelled or not
        await tasks.values[0].value
        #expect(await response.getResult().error is CancellationError)
    }

    @Test func aCallThatFinishes_isNeverCancelled() throws {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.download(completion: handler) }
        api.valueOrError.values[0](8, nil)
        response.cancel()
        #expect(try response.value == 8)
        #expect(api.cancelled.values.isEmpty)
    }

    // MARK: - Exactly once, where documented, whatever happens

    @Test func aCancellationRacingTheHandler_finishesTheResponseOnce_andCancelsTheCallOnlyWhenItWins() async throws {
        try await onOwnThread { try Self.raceCancellationsWithHandlers() }
    }

    static func raceCancellationsWithHandlers() throws {
        for _ in 0..<500 {
            let api = CallbackAPI()
            let response = Response<Int>.wrap(on: .immediate) { handler in api.download(completion: handler) }
            let creationLine = UInt(#line) - 1
            let outcomes = Recorder<Result<Int, any Error>>()
            response.onResult { outcomes.record($0) }
            let handler = api.valueOrError.values[0]
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { handler(1, nil) } else { response.cancel() }
            }
            #expect(outcomes.count == 1)
            let cancelled = (try? outcomes.values[0].get()) == nil
            #expect(cancelled == (response.error is CancellationError))
            #expect(api.cancelled.values == (cancelled ? ["download"] : []))
            #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
        }
    }

    @Test func theCallIsCancelled_beforeTheFailureCallbacksRun() {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.download(completion: handler) }
        response.onFailure { _ in api.cancelled.record("failure callback") }
        response.cancel()
        #expect(api.cancelled.values == ["download", "failure callback"])
    }

    @Test func aCallThatFinishedBeforeReturningItsHandle_isNeverCancelled() throws {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in
            handler(4, nil)  // a cache hit, before the call hands back its handle
            return CallHandle(name: "cached", api: api)
        }
        #expect(!response.cancel())
        #expect(try response.value == 4)
        #expect(api.cancelled.values.isEmpty)
    }

    @Test func anAPIThatDropsItsHandlerAfterTheCancellation_isNotReportedAsAbandoning() {
        let kept = LockedBox.make((@Sendable (Int) -> Void)?.none)
        let response = Response<Int>.wrap(on: .immediate) { (handler: @escaping @Sendable (Int) -> Void) in
            kept.withLock { $0 = handler }
            return ResponseCancellation {}
        }
        let creationLine = UInt(#line) - 4
        response.cancel()
        kept.withLock { $0 = nil }  // the API lets go of the handler without calling it
        #expect(response.error is CancellationError)
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    @Test func cancellingTheOnlyTaskThatAwaitsIt_cancelsTheCall() async {
        let api = CallbackAPI()
        let response = Response<Int>.wrap(on: .immediate) { handler in api.download(completion: handler) }
        let task = Task { try await response.get() }
        task.cancel()
        #expect(await resultWithinLimit(of: task)?.error is CancellationError)
        #expect(api.cancelled.values == ["download"])
        api.valueOrError.values[0](nil, CancellationError())  // the call reports it stopped: quiet
        #expect(response.error is CancellationError)
    }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
