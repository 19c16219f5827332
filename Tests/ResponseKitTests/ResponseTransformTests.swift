import Dispatch
import Foundation
import ResponseKit
import ResponseKitTesting
import Testing

struct ResponseTransformTests {
    // MARK: - map

    @Test func map_transformsTheValue() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let doubled = response.map { $0 * 2 }
        resolver.succeed(21)
        #expect(try doubled.value == 42)
    }

    @Test func map_passesFailuresThrough_withoutCallingTheTransform() {
        let calls = Recorder<Int>()
        let mapped = Response<Int>.failed(TestError(code: 3), on: .immediate).map { value -> Int in
            calls.record(value)
            return value
        }
        #expect(mapped.error as? TestError == TestError(code: 3))
        #expect(calls.values.isEmpty)
    }

    @Test func map_failsWithTheErrorTheTransformThrows() {
        let mapped = Response.succeeded(1, on: .immediate).map { _ -> Int in throw TestError(code: 5) }
        #expect(mapped.error as? TestError == TestError(code: 5))
    }

    @Test func map_keepsTheExecutorOfItsSource() {
        let manual = ManualExecutor()
        let (response, resolver) = Response<Int>.pending(on: manual.executor)
        let mapped = response.map { $0 + 1 }
        let seen = Recorder<Int>()
        mapped.onCompletion { seen.record($0) }
        resolver.succeed(1)
        #expect(seen.values.isEmpty)  // delivery waits for the manual executor
        manual.runAll()
        #expect(seen.values == [2])
    }

    @Test func map_runsOnTheGivenContext_whenAsked() throws {
        let queue = DispatchQueue(label: "transform")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "transform")
        let mapped = Response.succeeded(1, on: .immediate).map(on: .queue(queue)) { _ in
            DispatchQueue.getSpecific(key: key)
        }
        #expect(try mapped.value == "transform")
    }

    @Test func map_chainOfTen_deliversTheEnd() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        var chain = response
        for _ in 0..<10 { chain = chain.map { $0 + 1 } }
        resolver.succeed(0)
        #expect(try chain.value == 10)
    }

    @Test func map_byDefault_runsInlineOnTheThreadThatFinishesTheResponse() async throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let threads = Recorder<String>()
        let mapped = response.map { value -> Int in
            threads.record("\(pthread_self())")
            return value + 1
        }
        let doneBeforeSucceedReturned = Response<Bool>.pending(on: .immediate)
        DispatchQueue.global().async {
            threads.record("\(pthread_self())")
            resolver.succeed(1)
            doneBeforeSucceedReturned.resolver.succeed(mapped.isDone)
        }
        #expect(try await doneBeforeSucceedReturned.response.get())
        #expect(try await mapped.get() == 2)
        let seen = threads.values
        #expect(seen.count == 2 && seen[0] == seen[1], "the transformation ran on the finishing thread")
    }

    @Test func map_onAQueue_runsThere_evenWhenFinishedOnTheMainQueue() throws {
        let (response, resolver) = Response<Int>.pending()
        let onMain = Recorder<Bool>()
        let mapped = response.map(on: .queue(.global())) { value -> Int in
            onMain.record(MainQueueProbe.isOnMainQueue)
            return value
        }
        DispatchQueue.main.async { resolver.succeed(1) }  // finished on the main queue
        #expect(try mapped.value == 1)
        #expect(onMain.values == [false])
    }

    @Test func map_onAManualExecutor_runsOnlyWhenTheTestDrainsIt() throws {
        let manual = ManualExecutor()
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let mapped = response.map(on: manual.executor) { $0 * 2 }
        resolver.succeed(21)
        #expect(!mapped.isDone)
        #expect(manual.runAll() == 1)
        #expect(mapped.isSuccessful)
        #expect(try mapped.value == 42)
    }

    // MARK: - flatMap

    @Test func flatMap_continuesWithTheNextResponse() throws {
        let token = Response<String>(on: .global(), executor: .immediate) { "token" }
        let user = token.flatMap { token in
            Response<String>(on: .global(), executor: .immediate) { "user for \(token)" }
        }
        #expect(try user.value == "user for token")
    }

    @Test func flatMap_failsWithTheFirstStepsFailure() {
        let calls = Recorder<Bool>()
        let user = Response<String>.failed(TestError(code: 1), on: .immediate).flatMap { _ -> Response<Int> in
            calls.record(true)
            return .succeeded(1)
        }
        #expect(user.error as? TestError == TestError(code: 1))
        #expect(calls.values.isEmpty)
    }

    @Test func flatMap_failsWithTheSecondStepsFailure() {
        let user = Response.succeeded(1, on: .immediate).flatMap { _ in
            Response<Int>.failed(TestError(code: 2), on: .immediate)
        }
        #expect(user.error as? TestError == TestError(code: 2))
    }

    @Test func flatMap_failsWithTheErrorTheTransformThrows() {
        let user = Response.succeeded(1, on: .immediate).flatMap { _ -> Response<Int> in throw TestError(code: 3) }
        #expect(user.error as? TestError == TestError(code: 3))
    }

    @Test func flatMap_ofAnInnerResponseAlreadyDone_finishesAtOnce() throws {
        let (first, resolver) = Response<Int>.pending(on: .immediate)
        let result = first.flatMap { Response.succeeded($0 * 2, on: .immediate) }
        resolver.succeed(4)
        #expect(try result.wait(timeout: .zero) == 8)
    }

    @Test func flatMap_cancellingTheResult_cancelsTheInnerResponse() {
        let (first, firstResolver) = Response<Int>.pending(on: .immediate)
        let (inner, innerResolver) = Response<Int>.pending(on: .immediate)
        let result = first.flatMap { _ in inner }
        firstResolver.succeed(1)
        #expect(!inner.isDone)

        result.cancel()

        #expect(innerResolver.isCancelled)
    }

    // MARK: - recover, flatMapError, mapError

    @Test func recover_turnsAFailureIntoAValue() throws {
        let recovered = Response<Int>.failed(TestError(), on: .immediate).recover { _ in -1 }
        #expect(try recovered.value == -1)
    }

    @Test func recover_leavesSuccessAlone() throws {
        let recovered = Response.succeeded(4, on: .immediate).recover { _ in -1 }
        #expect(try recovered.value == 4)
    }

    @Test func recover_doesNotRecoverCancellation() {
        let (response, responseResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
        let recovered = response.recover { _ in -1 }
        response.cancel()
        #expect(recovered.error is CancellationError)
    }

    @Test func recover_recoversOnlyTheFirstFailure_notOneOfALaterStep() {
        // A recovery placed before a step does not see that step's failure.
        let calls = Recorder<Int>()
        let response = Response<Int>.failed(TestError(code: 1), on: .immediate)
            .recover { error in
                calls.record((error as? TestError)?.code ?? 0)
                return 1
            }
            .map { _ -> Int in throw TestError(code: 2) }
        #expect(response.error as? TestError == TestError(code: 2))
        #expect(calls.values == [1])
    }

    @Test func recover_failsWithWhatTheTransformThrows() {
        let recovered = Response<Int>.failed(TestError(code: 1), on: .immediate).recover { _ -> Int in
            throw TestError(code: 2)
        }
        #expect(recovered.error as? TestError == TestError(code: 2))
    }

    @Test func flatMapError_fallsBackToAnotherResponse() throws {
        let fallback = Response<Int>.failed(TestError(), on: .immediate).flatMapError { _ in
            Response<Int>(on: .global(), executor: .immediate) { 7 }
        }
        #expect(try fallback.value == 7)
    }

    @Test func flatMapError_whoseFallbackFailsToo_failsWithTheFallbacksError() {
        // google/promises' testPromiseRejectRecover: a recovery that fails again.
        let calls = Recorder<Int>()
        let (fallback, fallbackResolver) = Response<Int>.pending(on: .immediate)
        let response = Response<Int>.failed(TestError(code: 1), on: .immediate).flatMapError { error in
            calls.record((error as? TestError)?.code ?? 0)
            return fallback
        }
        #expect(!response.isDone)
        fallbackResolver.fail(TestError(code: 2))
        #expect(response.error as? TestError == TestError(code: 2))
        #expect(calls.values == [1])
    }

    @Test func flatMapError_failsWithTheErrorTheTransformThrows() {
        // swift-nio's flatMapErrorThrowing.
        let response = Response<Int>.failed(TestError(code: 1), on: .immediate).flatMapError { _ -> Response<Int> in
            throw TestError(code: 2)
        }
        #expect(response.error as? TestError == TestError(code: 2))
    }

    @Test func flatMapError_cancelledWhileOnTheFallback_cancelsTheFallback() {
        let (first, firstResolver) = Response<Int>.pending(on: .immediate)
        let (fallback, fallbackResolver) = Response<Int>.pending(on: .immediate)
        let response = first.flatMapError { _ in fallback }
        firstResolver.fail(TestError())
        response.cancel()
        #expect(fallbackResolver.isCancelled)
    }

    @Test func flatMapError_doesNotRecoverCancellation() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }  // cancelled, never resolved
        let calls = Recorder<Bool>()
        let recovered = response.flatMapError { _ -> Response<Int> in
            calls.record(true)
            return .succeeded(0)
        }
        response.cancel()
        #expect(recovered.error is CancellationError)
        #expect(calls.values.isEmpty)
    }

    @Test func flatMapError_leavesSuccessAlone() throws {
        let calls = Recorder<Bool>()
        let response = Response.succeeded(3, on: .immediate).flatMapError { _ -> Response<Int> in
            calls.record(true)
            return .succeeded(0)
        }
        #expect(try response.value == 3)
        #expect(calls.values.isEmpty)
    }

    @Test func mapError_replacesTheError() {
        struct DomainError: Error, Equatable { let underlying: Int }
        let mapped = Response<Int>.failed(TestError(code: 9), on: .immediate).mapError { error in
            DomainError(underlying: (error as? TestError)?.code ?? 0)
        }
        #expect(mapped.error as? DomainError == DomainError(underlying: 9))
    }

    @Test func mapError_leavesCancellationAlone() {
        let (response, responseResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
        let mapped = response.mapError { _ in TestError() }
        response.cancel()
        #expect(mapped.error is CancellationError)
    }
}

/// Whether the caller runs on the main queue, as seen from tests.
enum MainQueueProbe {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// Chains far longer than any real one must not grow the stack with their length.
struct ResponseLongChainTests {
    @Test func mapChainOfTwentyThousand_finishesInline_withoutOverflowingTheStack() throws {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        var chain = source
        for _ in 0..<20_000 { chain = chain.map { $0 + 1 } }
        DispatchQueue.global().async { resolver.succeed(0) }  // a worker thread's smaller stack
        #expect(try chain.value == 20_000)
    }

    @Test func cancellingTheEndOfALongChain_cancelsItsSource_withoutOverflowingTheStack() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        var chain = source
        for _ in 0..<20_000 { chain = chain.map { $0 + 1 } }
        let cancelled = Response<Bool>.pending(on: .immediate)
        let end = chain
        DispatchQueue.global().async {
            end.cancel()
            cancelled.resolver.succeed(resolver.isCancelled)
        }
        #expect((try? cancelled.response.value) == true)
    }
}
