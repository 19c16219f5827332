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
}
