import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

struct ResponseConcurrencyTests {
    // MARK: - Response -> async

    @Test func get_returnsTheValue() async throws {
        let (response, resolver) = Response<Int>.pending()
        DispatchQueue.global().async { resolver.succeed(5) }
        #expect(try await response.get() == 5)
    }

    @Test func get_throwsTheFailure() async {
        let response = Response<Int>.failed(TestError(code: 2))
        await #expect(throws: TestError(code: 2)) { try await response.get() }
    }

    @Test func blockingValue_stillWorksInAsyncCode() async throws {
        let (response, resolver) = Response<Int>.pending()
        DispatchQueue.global().async { resolver.succeed(3) }
        #expect(try response.value == 3)
    }

    @Test func blockingValueInATask_endsWithCancellationError_whenTheTaskIsCancelled() async {
        let (response, responseResolver) = Response<Int>.pending()
        defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
        let task = Task.detached { try response.value }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!response.isDone)  // only the wait ended: the response itself goes on
    }

    @Test func get_onADoneResponse_returnsAtOnce() async throws {
        #expect(try await Response.succeeded("x").get() == "x")
    }

    @Test func getResult_neverThrows() async {
        let result = await Response<Int>.failed(TestError(code: 1)).getResult()
        #expect(throws: TestError(code: 1)) { try result.get() }
    }

    @Test func cancellingTheAwaitingTask_cancelsTheResponse() async throws {
        let (response, resolver) = Response<Int>.pending()
        let started = Response<Void>.pending(on: .immediate)
        let task = Task {
            started.resolver.succeed()
            return try await response.get()
        }
        try await started.response.get()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(resolver.isCancelled)  // nothing else waited on it: the work is told to stop
    }

    @Test func cancellingOneOfTwoAwaitingTasks_keepsTheResponseForTheOther() async throws {
        let (response, resolver) = Response<Int>.pending()
        let bothWaiting = Response<Void>.pending(on: .immediate)
        let waiting = Recorder<Int>()
        let first = Task {
            waiting.record(1)
            if waiting.count == 2 { bothWaiting.resolver.succeed() }
            return try await response.get()
        }
        let second = Task {
            waiting.record(2)
            if waiting.count == 2 { bothWaiting.resolver.succeed() }
            return try await response.get()
        }
        try await bothWaiting.response.get()
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(!resolver.isCancelled)
        resolver.succeed(9)
        #expect(try await second.value == 9)
    }

    // MARK: - async -> Response

    @Test func asyncInit_runsTheWork_andSucceeds() async throws {
        let response = Response<Int>(executor: .immediate) {
            await Task.yield()
            return 41 + 1
        }
        #expect(try await response.get() == 42)
    }

    @Test func asyncInit_failsWithTheWorksError() async {
        let response = Response<Int>(executor: .immediate) { throw TestError(code: 6) }
        await #expect(throws: TestError(code: 6)) { try await response.get() }
    }

    @Test func asyncInit_cancellingTheResponse_cancelsTheTask() async throws {
        let started = Response<Void>.pending(on: .immediate)
        let sawCancellation = Response<Bool>.pending(on: .immediate)
        let response = Response<Int>(executor: .immediate) {
            started.resolver.succeed()
            // Wait for cancellation without sleeping: a continuation resumed by the cancel handler.
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    sawCancellation.response.onResult { _ in continuation.resume() }
                }
            } onCancel: {
                sawCancellation.resolver.succeed(true)
            }
            return 1
        }
        try await started.response.get()
        response.cancel()
        #expect(try await sawCancellation.response.get())
        #expect(response.error is CancellationError)
    }

    @Test func asyncInit_isBlockable_likeAnyResponse() async throws {
        let response = Response<String>(executor: .immediate) { "from a task" }
        // Blocked from a thread of its own: a blocked pool thread could starve the task it waits for.
        #expect(try await onOwnThread { try response.value } == "from a task")
    }
}
