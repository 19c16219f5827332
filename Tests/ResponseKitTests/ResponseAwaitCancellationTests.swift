import Dispatch
import ResponseKitTesting
import Testing

@testable import ResponseKit

/// Cancelling a task that awaits a response, before, during and after the await, in the way
/// Swift's `withTaskCancellationHandler` and `CheckedContinuation` expect: the task gets one
/// outcome, the continuation is resumed exactly once, the response is cancelled only when nobody
/// else waits on it, and a wait that ends leaves nothing registered on the response.
struct ResponseAwaitCancellationTests {
    init() { startRecordingDiagnostics() }

    // MARK: - Before the await

    @Test func aTaskCancelledBeforeItAwaits_throwsCancellationError_andCancelsAResponseNobodyElseWaitsOn() async {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await response.get()
        }
        let result = await resultWithinLimit(of: task)
        #expect(result?.error is CancellationError)
        #expect(resolver.isCancelled)
        #expect(response.waitingCallbackCount == 0)
    }

    @Test func aTaskCancelledBeforeItAwaits_sparesAResponseSomethingElseWaitsOn() async throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let derived = response.map { $0 * 2 }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await response.get()
        }
        let result = await resultWithinLimit(of: task)
        #expect(result?.error is CancellationError)
        #expect(!resolver.isCancelled)
        #expect(response.waitingCallbackCount == 1, "only the derived response's observer")
        resolver.succeed(4)
        #expect(try await derived.get() == 8)
    }

    @Test func aTaskCancelledBeforeItAwaits_stillGetsAResponseAlreadyDone() async throws {
        let response = Response.succeeded(6, on: .immediate)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await response.get()
        }
        #expect(try await task.value == 6)
    }

    // MARK: - During the await

    @Test func aCancelledAwait_takesItsWaiterOffAResponseThatGoesOn() async throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let derived = response.map { $0 + 1 }  // keeps the response going after each cancellation
        for round in 0..<100 {
            let task = Task { try await response.get() }
            await yieldUntil({ response.waitingCallbackCount == 2 }, "round \(round): the task never registered")
            task.cancel()
            let result = await resultWithinLimit(of: task)
            #expect(result?.error is CancellationError)
            #expect(response.waitingCallbackCount == 1, "round \(round): the cancelled await left its waiter")
            guard response.waitingCallbackCount == 1 else { break }
        }
        #expect(!resolver.isCancelled)
        resolver.succeed(1)
        #expect(try await derived.get() == 2)
    }

    @Test func aCancellationRacingTheResult_endsEachAwaitOnce_withOneOfThem() async throws {
        for _ in 0..<500 {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let derived = response.map { $0 }  // so that the result can still come after a cancellation
            let task = Task { try await response.get() }
            DispatchQueue.global().async { resolver.succeed(7) }
            task.cancel()
            switch await resultWithinLimit(of: task) {
            case .success(let value): #expect(value == 7)
            case .failure(let error): #expect(error is CancellationError)
            case nil: return
            }
            #expect(try await derived.get() == 7)
            #expect(response.waitingCallbackCount == 0)
        }
    }

    @Test func aCancellationArrivingWhileTheTaskRegisters_stillLeavesNothingBehind() async throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let derived = response.map { $0 }  // keeps the response going after each cancellation
        for round in 0..<1_000 {
            let (aboutToAwait, aboutToAwaitResolver) = Response<Void>.pending(on: .immediate)
            let task = Task {
                aboutToAwaitResolver.succeed()
                return try await response.get()
            }
            _ = await aboutToAwait.getResult()
            task.cancel()  // races the registration on another thread
            #expect(await resultWithinLimit(of: task)?.error is CancellationError)
            #expect(response.waitingCallbackCount == 1, "round \(round)")
            guard response.waitingCallbackCount == 1 else { break }
        }
        resolver.succeed(2)
        #expect(try await derived.get() == 2)
    }

    @Test func halfOfAThousandAwaitingTasksCancelled_getCancellationError_andTheRestTheValue() async throws {
        let (response, resolver) = Response<Int>.pending()
        let tasks = (0..<1_000).map { _ in Task { try await response.get() } }
        await yieldUntil { response.waitingCallbackCount == 1_000 }
        for task in tasks[..<500] { task.cancel() }
        for task in tasks[..<500] {
            #expect(await resultWithinLimit(of: task)?.error is CancellationError)
        }
        #expect(response.waitingCallbackCount == 500)
        #expect(!response.isDone)  // the other half still waits on it
        resolver.succeed(4)
        for task in tasks[500...] {
            #expect(try await resultWithinLimit(of: task)?.get() == 4)
        }
        #expect(response.waitingCallbackCount == 0)
    }

    @Test func aFailureAwaitedWhilePending_countsAsObserved() async {
        var creationLine: UInt = 0
        do {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            creationLine = #line - 1
            let task = Task { await response.getResult() }
            await yieldUntil { response.waitingCallbackCount == 1 }
            resolver.fail(TestError(code: 3))
            #expect(await task.value.error as? TestError == TestError(code: 3))
        }
        #expect(creationLine > 0)
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    // MARK: - After the response finished

    @Test func aTaskCancelledAfterTheResponseFinished_keepsTheValue() async throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let (gate, gateResolver) = Response<Void>.pending(on: .immediate)
        let task = Task {
            let value = try await response.get()
            _ = await gate.getResult()  // ends at once once cancelled: the value was had before
            return value
        }
        await yieldUntil { response.waitingCallbackCount == 1 }
        resolver.succeed(5)
        task.cancel()
        #expect(try await task.value == 5)
        #expect(!response.isCancelled)
        withExtendedLifetime(gateResolver) {}
    }

    // MARK: - Both directions

    @Test func cancellingTheLastAwaitingTask_cancelsTheTaskOfAResponseMadeFromAsyncWork() async throws {
        let (started, startedResolver) = Response<Void>.pending(on: .immediate)
        let (sawCancellation, sawCancellationResolver) = Response<Bool>.pending(on: .immediate)
        let response = Response<Int>(executor: .immediate) {
            startedResolver.succeed()
            // Waits for its cancellation without sleeping: resumed by the cancellation handler.
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    sawCancellation.onResult { _ in continuation.resume() }
                }
            } onCancel: {
                sawCancellationResolver.succeed(true)
            }
            return 1
        }
        try await started.get()
        let task = Task { try await response.get() }
        await yieldUntil { response.waitingCallbackCount == 1 }
        task.cancel()
        #expect(await resultWithinLimit(of: task)?.error is CancellationError)
        #expect(try await sawCancellation.get())
        #expect(response.isCancelled)
    }

    @Test func cancellingAResponseMadeFromAsyncWork_cancelsAResponseThatWorkAwaits() async throws {
        let (inner, innerResolver) = Response<Int>.pending(on: .immediate)
        let (innerCancelled, innerCancelledResolver) = Response<Void>.pending(on: .immediate)
        innerResolver.onCancel { innerCancelledResolver.succeed() }
        let outer = Response<Int>(executor: .immediate) { try await inner.get() + 1 }
        outer.cancel()
        // Whether the work's task awaited before or after its cancellation, the await lets go.
        let sawIt = Task { try await innerCancelled.get() }
        #expect(await resultWithinLimit(of: sawIt) != nil)
        #expect(inner.isCancelled)
        #expect(outer.error is CancellationError)
    }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
