import Dispatch
import ResponseKit
import Testing

struct ResponseMemoryTests {
    @Test func finishedResponse_andItsCallbacks_areReleased() {
        weak var weakResponse: Response<Int>?
        weak var weakCaptured: Sentinel?
        do {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let captured = Sentinel()
            response.onCompletion { _ in _ = captured }
            weakResponse = response
            weakCaptured = captured
            resolver.succeed(1)
        }
        #expect(weakResponse == nil)
        #expect(weakCaptured == nil)
    }

    @Test func callbacks_areReleasedOnCompletion_whileTheResponseLives() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        weak var weakCaptured: Sentinel?
        do {
            let captured = Sentinel()
            response.onCompletion { _ in _ = captured }
            weakCaptured = captured
        }
        #expect(weakCaptured != nil)  // the pending response holds its callback
        resolver.succeed(1)
        #expect(weakCaptured == nil)  // and lets go of it once delivered
        #expect(response.isDone)
    }

    @Test func callbackCapturingItsResponse_doesNotLeak_onceDone() {
        weak var weakResponse: Response<Int>?
        do {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            response.onCompletion { _ in _ = response.isDone }  // a cycle while pending
            weakResponse = response
            resolver.succeed(1)
        }
        #expect(weakResponse == nil)
    }

    @Test func resolverAndResponse_formNoCycle_whenNeverResolved() {
        weak var weakResponse: Response<Int>?
        do {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            resolver.onCancel {}
            response.onFailure { _ in }
            weakResponse = response
        }
        #expect(weakResponse == nil)
    }

    @Test func cancellationHandlers_areReleased_whenTheResponseSucceeds() {
        let (_, resolver) = Response<Int>.pending(on: .immediate)
        weak var weakCaptured: Sentinel?
        do {
            let captured = Sentinel()
            resolver.onCancel { _ = captured }
            weakCaptured = captured
        }
        resolver.succeed(1)
        #expect(weakCaptured == nil)
    }

    @Test func timedOutWait_releasesTheResponse_onceItFinishes() {
        weak var weakResponse: Response<Int>?
        do {
            let (response, resolver) = Response<Int>.pending()
            weakResponse = response
            _ = try? response.wait(timeout: .milliseconds(1))
            resolver.succeed(1)
        }
        #expect(weakResponse == nil)
    }

    @Test func anAwaitedResponse_isReleasedOnceTheAwaitEnds() async throws {
        weak var weakResponse: Response<Int>?
        var resolver: Resolver<Int>?
        let task: Task<Int, any Error>
        do {
            let made = Response<Int>.pending(on: .immediate)
            weakResponse = made.response
            resolver = made.resolver
            task = Task { try await made.response.get() }
        }
        resolver?.succeed(3)
        resolver = nil
        #expect(try await task.value == 3)
        // The finished task may still be letting go of its frame.
        await yieldUntil({ weakResponse == nil }, "the response outlived its await")
    }

    @Test func aResponseWhoseAwaitWasCancelled_isReleasedWithItsLastHolder() async {
        weak var weakResponse: Response<Int>?
        do {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            weakResponse = response
            let derived = response.map { $0 }  // keeps it pending after the cancellation
            let task = Task { try await response.get() }
            task.cancel()
            _ = await resultWithinLimit(of: task)
            resolver.succeed(1)
            _ = derived
        }
        await yieldUntil({ weakResponse == nil }, "the response outlived its cancelled await")
    }

    @Test func aResponseMadeFromAsyncWork_isReleasedOnceFinished() async throws {
        weak var weakResponse: Response<Int>?
        do {
            let response = Response<Int>(executor: .immediate) { 5 }
            weakResponse = response
            #expect(try await response.get() == 5)
        }
        // Its task lets go of the resolver as it ends, just after finishing the response.
        await yieldUntil({ weakResponse == nil }, "the response outlived its task")
    }
}
