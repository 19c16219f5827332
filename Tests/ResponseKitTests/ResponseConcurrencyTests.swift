import Dispatch
import Foundation
import ResponseKitTesting
import Testing

@testable import ResponseKit

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

    /// What a presenter shows, for the main-actor tests below.
    @MainActor final class Shown {
        var values: [Int] = []
    }

    /// A `@MainActor` test can await a response and then check its presenter: the presenter's
    /// main-actor callback, queued for the main queue, has run when `get()` returns, as after a
    /// blocking read (issue 33: awaiting holds no thread, so a parallel suite does not starve).
    @MainActor @Test func get_onTheMainActor_returnsAfterTheMainActorCallbacksRegisteredBeforeIt() async throws {
        let shown = Shown()
        let response = Response<Int>.succeeded(7)  // delivers on the main queue
        response.mainActor.onCompletion { shown.values.append($0) }
        #expect(try await response.get() == 7)
        #expect(shown.values == [7])
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

    @Test func aThousandTasksAndFourBlockedThreads_onOneResponse_eachGetTheValueOnce() async throws {
        let (response, resolver) = Response<Int>.pending()
        let tasks = (0..<1_000).map { _ in Task { try await response.get() } }
        let blocked = Recorder<Int>()
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            Thread {
                blocked.record((try? response.value) ?? -1)
                finished.signal()
            }.start()
        }
        // Every waiter registered before the result comes, so each is woken by it.
        await yieldUntil { response.waitingCallbackCount == 1_004 }
        DispatchQueue.global().async { resolver.succeed(11) }
        for task in tasks {
            #expect(try await resultWithinLimit(of: task)?.get() == 11)
        }
        let threadsEnded = try await onOwnThread {
            (0..<4).allSatisfy { _ in finished.wait(timeout: .now() + 60) == .success }
        }
        #expect(threadsEnded)
        #expect(blocked.values == [11, 11, 11, 11])
        #expect(response.waitingCallbackCount == 0)
    }

    @Test func aThousandTasks_awaitingOneFailure_eachGetTheFailureOnce() async {
        let (response, resolver) = Response<Int>.pending()
        let tasks = (0..<1_000).map { _ in Task { try await response.get() } }
        await yieldUntil { response.waitingCallbackCount == 1_000 }
        resolver.fail(TestError(code: 8))
        for task in tasks {
            let result = await resultWithinLimit(of: task)
            #expect(throws: TestError(code: 8)) { try result?.get() }
        }
    }

    // MARK: - On the main actor

    @MainActor @Test func awaitingAMainResponse_onTheMainActor_suspendsUntilTheMainQueueFinishesIt() async throws {
        let (response, resolver) = Response<Int>.pending()
        // Resolved by a main-queue job: the await must let the main actor go for it to run.
        DispatchQueue.main.async { resolver.succeed(2) }
        #expect(try await response.get() == 2)
    }

    @MainActor @Test func awaitingADoneMainResponse_onTheMainActor_returnsAtOnce() async throws {
        #expect(try await Response.succeeded(3).get() == 3)
        await #expect(throws: TestError(code: 3)) { try await Response<Int>.failed(TestError(code: 3)).get() }
    }

    @Test func awaitingInsideMainActorRun_getsAValueResolvedFromAnotherThread() async throws {
        let (response, resolver) = Response<String>.pending()
        DispatchQueue.global().async { resolver.succeed("main") }
        let value = try await MainActor.run {
            Task { @MainActor in try await response.get() }
        }.value
        #expect(value == "main")
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

    @Test func asyncInit_withAMainActorClosure_runsItOnTheMainActor() async throws {
        // `@Sendable` too: Swift 6.3 cannot check a bare `@MainActor in` closure that awaits.
        let response = Response<Int>(executor: .immediate) { @Sendable @MainActor in
            MainActor.assertIsolated()
            await Task.yield()
            MainActor.assertIsolated()
            return 1
        }
        #expect(try await response.get() == 1)
    }

    @Test func asyncInit_thatThrowsCancellationError_failsWithIt() async {
        let response = Response<Int>(executor: .immediate) { throw CancellationError() }
        await #expect(throws: CancellationError.self) { try await response.get() }
        #expect(!response.isCancelled)  // the work gave up; nobody cancelled the response
    }

    @Test func asyncInit_passesAValueAndAnErrorUnchanged() async throws {
        struct Payload: Equatable, Sendable {
            var name: String
            var numbers: [Int]
        }
        let payload = Payload(name: "p", numbers: Array(0..<100))
        #expect(try await Response<Payload>(executor: .immediate) { payload }.get() == payload)
        final class IdentifiedError: Error, Sendable {}
        let thrown = IdentifiedError()
        let failed = Response<Payload>(executor: .immediate) { throw thrown }
        do {
            _ = try await failed.get()
            Issue.record("no error")
        } catch {
            #expect((error as? IdentifiedError) === thrown, "the very error thrown, not a copy or a wrapper")
        }
    }

    @Test func tenThousandResponsesFromAsyncWork_atOnce_eachFinishWithItsOwnValue() async throws {
        let responses = (0..<10_000).map { index in Response<Int>(executor: .immediate) { index } }
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (index, response) in responses.enumerated() {
                group.addTask { (index, try await response.get()) }
            }
            var seen = 0
            for try await (index, value) in group {
                #expect(value == index)
                seen += 1
            }
            #expect(seen == 10_000)
        }
    }
}
