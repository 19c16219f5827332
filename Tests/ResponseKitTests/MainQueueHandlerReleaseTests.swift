import Dispatch
import Foundation
import ResponseKit
import Testing

/// A `.main` response that finishes without being cancelled releases its work's cancellation
/// handler on the main queue, after its callbacks: the async bridge's handler holds the `Task`,
/// which is then freed on the thread that made it (Benchmarks/README.md, "The async bridge's
/// task, freed where it was made"). Where nothing is delivered on the main queue, or the response
/// is cancelled, the handler goes at completion, as before.
struct MainQueueHandlerReleaseTests {
    /// Calls `onDeinit` when released.
    final class ReleaseProbe: Sendable {
        let onDeinit: @Sendable () -> Void

        init(onDeinit: @escaping @Sendable () -> Void) {
            self.onDeinit = onDeinit
        }

        deinit { onDeinit() }
    }

    /// Where ResponseKit runs main-queue work: inside a main-queue job (``MainQueueProbe``: Swift
    /// Testing's runner services the main queue from other threads than the main one), or on the
    /// main thread (a blocking read there runs the jobs that are ready, as the XCTest tests in this
    /// process do).
    static var isOnTheMainQueue: Bool {
        MainQueueProbe.isOnMainQueue || Thread.isMainThread
    }

    @Test func theHandler_isReleasedOnTheMainQueue_afterTheCallbacks() throws {
        _ = MainQueueProbe.isOnMainQueue  // its key is set on the main queue before any job runs
        let (response, resolver) = Response<Int>.pending()
        let delivered = Response<Bool>.pending(on: .immediate)
        let released = Response<(onTheMainQueue: Bool, afterDelivery: Bool)>.pending(on: .immediate)
        do {
            let probe = ReleaseProbe {
                released.resolver.succeed((Self.isOnTheMainQueue, delivered.response.isDone))
            }
            resolver.onCancel { _ = probe }
        }
        response.onCompletion { _ in delivered.resolver.succeed(Self.isOnTheMainQueue) }
        DispatchQueue.global().async { resolver.succeed(1) }

        let release = try released.response.wait(timeout: .seconds(30))
        #expect(try delivered.response.wait(timeout: .seconds(30)), "the callback ran off the main queue")
        #expect(release.afterDelivery, "released before the callback ran")
        #expect(release.onTheMainQueue, "released off the main queue")
    }

    /// A pending `.main` response whose cancellation handler holds an object, and whether that
    /// handler has been released.
    func responseWithWatchedHandler() -> (Response<Int>, Resolver<Int>, handlerReleased: () -> Bool) {
        let (response, resolver) = Response<Int>.pending()
        let captured = Sentinel()
        resolver.onCancel { _ = captured }
        return (response, resolver, { [weak captured] in captured == nil })
    }

    @Test func withNoCallbackOnTheMainQueue_theHandlerIsReleasedAtCompletion() {
        let (response, resolver, handlerReleased) = responseWithWatchedHandler()
        response.onResult(on: .immediate) { _ in }  // its own executor: nothing queued on `.main`
        #expect(!handlerReleased())
        resolver.succeed(1)
        #expect(handlerReleased())
    }

    @Test func aSuccessCallback_ofAFailedResponse_queuesNothing_soTheHandlerGoesAtCompletion() {
        let (response, resolver, handlerReleased) = responseWithWatchedHandler()
        response.onCompletion { _ in }
        response.onFailure(on: .immediate) { _ in }  // the failure is observed
        resolver.fail(TestError())
        #expect(handlerReleased())
    }

    @Test func aCancelledResponse_runsAndReleasesItsHandlerOnTheCancellingThread() {
        let (response, resolver) = Response<Int>.pending()
        let ran = Response<Void>.pending(on: .immediate)
        weak var weakCaptured: Sentinel?
        do {
            let captured = Sentinel()
            resolver.onCancel {
                _ = captured
                ran.resolver.succeed()
            }
            weakCaptured = captured
        }
        response.onFailure { _ in }
        response.cancel()
        #expect(ran.response.isDone)
        #expect(weakCaptured == nil)
    }
}
