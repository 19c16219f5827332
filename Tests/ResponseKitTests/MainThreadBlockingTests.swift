import Dispatch
import Foundation
import ResponseKit
import ResponseKitTesting
import XCTest

/// XCTest runs synchronous tests on the main thread, which is what these cases need.
final class MainThreadBlockingTests: XCTestCase {
    func testRunsOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread, "the cases below assume XCTest's main-thread execution")
    }

    func testValue_onMainThread_finishes_whenTheWorkNeedsTheMainQueue() throws {
        let (response, resolver) = Response<Int>.pending()
        // The work's last step is scheduled on the main queue, which this thread is blocking.
        DispatchQueue.global().async {
            DispatchQueue.main.async { resolver.succeed(7) }
        }
        XCTAssertEqual(try response.value, 7)
    }

    func testValue_onMainThread_finishes_whenTheWorkRunsOnTheMainQueue() throws {
        let response = Response<Int>(on: .main) { 11 }
        XCTAssertEqual(try response.value, 11)
    }

    func testValue_onMainThread_finishes_whenAsyncWorkRunsOnTheMainActor() throws {
        // `@Sendable` too: Swift 6.3 cannot check a bare `@MainActor in` closure that awaits here.
        let response = Response<Bool> { @Sendable @MainActor in
            await Task.yield()  // a second main-actor job, after a suspension
            return Thread.isMainThread
        }
        XCTAssertEqual(try response.value, true)
    }

    func testMainExecutor_deliversOnTheMainThread_duringABlockingWait() throws {
        let (response, resolver) = Response<Int>.pending()
        let delivered = Response<Bool>.pending(on: .immediate)
        response.onCompletion { _ in delivered.resolver.succeed(Thread.isMainThread) }
        DispatchQueue.global().async { resolver.succeed(1) }

        XCTAssertEqual(try response.value, 1)
        XCTAssertTrue(try delivered.response.value, "a .main callback ran off the main thread")
    }

    func testCallbacksOnMain_runInRegistrationOrder() throws {
        let (response, resolver) = Response<Int>.pending()
        let order = Response<[Int]>.pending(on: .immediate)
        let seen = Recorder<Int>()
        for index in 0..<20 {
            response.onCompletion { _ in seen.record(index) }
        }
        response.onCompletion { _ in order.resolver.succeed(seen.values) }
        DispatchQueue.global().async { resolver.succeed(1) }
        XCTAssertEqual(try order.response.value, Array(0..<20))
    }

    func testWaitTimeout_onMainThread_timesOut() {
        let (response, responseResolver) = Response<Int>.pending()
        defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
        XCTAssertThrowsError(try response.wait(timeout: .milliseconds(30))) { error in
            XCTAssertEqual(error as? ResponseError, .timedOut)
        }
    }

    func testWaitTimeout_onMainThread_returnsWorkDoneOnTheMainQueue() throws {
        let (response, resolver) = Response<Int>.pending()
        DispatchQueue.main.async { resolver.succeed(4) }
        XCTAssertEqual(try response.wait(timeout: .seconds(30)), 4)
    }

    func testMainActorCallback_runsOnMainThread() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let delivered = Response<Bool>.pending(on: .immediate)
        MainActor.assumeIsolated {
            _ = response.mainActor.onCompletion { _ in delivered.resolver.succeed(Thread.isMainThread) }
        }
        DispatchQueue.global().async { resolver.succeed(1) }
        XCTAssertTrue(try delivered.response.value)
    }
}

/// Blocking on the end of a composed chain from the main thread: transformations never need it.
final class MainThreadChainTests: XCTestCase {
    func testTenStepMapChain_onMainResponses_finishesWhenBlockedOnFromTheMainThread() throws {
        let (source, resolver) = Response<Int>.pending()  // delivers on .main
        var chain = source
        for _ in 0..<10 { chain = chain.map { $0 + 1 } }
        DispatchQueue.global().async { resolver.succeed(0) }
        XCTAssertEqual(try chain.value, 10)
    }

    func testTenStepChain_onAGlobalQueue_resolvedOnTheMainQueue_runsItsStepsOffTheMainThread() throws {
        let (source, resolver) = Response<Int>.pending()
        let stepsOnMain = Recorder<Bool>()
        var chain = source
        for _ in 0..<10 {
            chain = chain.map(on: .queue(.global())) { value in
                stepsOnMain.record(Thread.isMainThread)
                return value + 1
            }
        }
        DispatchQueue.main.async { resolver.succeed(0) }
        XCTAssertEqual(try chain.value, 10)
        XCTAssertEqual(stepsOnMain.values, Array(repeating: false, count: 10))
    }

    func testMixedChain_withFlatMapTimeoutAndRecover_finishesFromTheMainThread() throws {
        let fetchToken = Response<String>(on: .global()) { "token" }
        let user =
            fetchToken
            .flatMap { token in Response<String>(on: .global()) { "user(\(token))" } }
            .timeout(after: .seconds(30))
            .validate { !$0.isEmpty }
            .intercept { _ in }
            .map { $0.uppercased() }
            .recover { _ in "anonymous" }
        XCTAssertEqual(try user.value, "USER(TOKEN)")
    }
}

/// Blocking reads inside a main-queue job, on the main thread: ResponseKit's own main-queue work
/// still runs during the wait, a wait on work done elsewhere is not reported, and one that needs
/// other main-queue work is reported once it has held the main queue for half a second.
final class MainQueueJobBlockingTests: XCTestCase {
    func testValue_insideAMainQueueJob_runsWorkResponseKitPutOnTheMainQueue() throws {
        let outcome = Response<Int>.pending(on: .immediate)
        DispatchQueue.main.async {
            let onMain = Response<Int>(on: .main, executor: .immediate) { 7 }
            outcome.resolver.resolve(with: onMain.result)
        }
        XCTAssertEqual(try outcome.response.value, 7)
    }

    func testValue_insideAMainQueueJob_deliversTheMainCallbacksItWaitsFor() throws {
        let outcome = Response<Int>.pending(on: .immediate)
        DispatchQueue.main.async {
            let (response, resolver) = Response<Int>.pending()  // delivers on .main
            let doubled = Response<Int>.pending(on: .immediate)
            response.onCompletion { doubled.resolver.succeed($0 * 2) }
            DispatchQueue.global().async { resolver.succeed(4) }
            outcome.resolver.resolve(with: doubled.response.result)
        }
        XCTAssertEqual(try outcome.response.value, 8)
    }

    func testValue_insideAMainQueueJob_runsTheJobsQueuedBehindIt_inItsOwnBatch() throws {
        let (first, firstResolver) = Response<Int>.pending()
        let (second, secondResolver) = Response<Int>.pending()
        let (awaited, awaitedResolver) = Response<Int>.pending(on: .immediate)
        let outcome = Response<Int>.pending(on: .immediate)
        // A main-queue job that blocks on what the job queued right behind it provides.
        first.onCompletion { _ in outcome.resolver.resolve(with: Result { try awaited.wait(timeout: .seconds(30)) }) }
        second.onCompletion { _ in awaitedResolver.succeed(5) }
        DispatchQueue.main.async {
            // Both deliveries join one batch: the drain cannot start before this job returns.
            firstResolver.succeed(1)
            secondResolver.succeed(2)
        }
        XCTAssertEqual(try outcome.response.wait(timeout: .seconds(60)), 5)
    }

    func testValue_insideAMainActorCallbackRunDuringAnotherWait_stillProgresses() throws {
        let (first, firstResolver) = Response<Int>.pending()
        let inner = Response<Int>.pending(on: .immediate)
        first.onCompletion { _ in
            // A .main callback, run by the outer wait below: it blocks on more .main work.
            let (second, secondResolver) = Response<Int>.pending()
            let seen = Response<Int>.pending(on: .immediate)
            second.onCompletion { seen.resolver.succeed($0) }
            DispatchQueue.global().async { secondResolver.succeed(5) }
            inner.resolver.resolve(with: seen.response.result)
        }
        DispatchQueue.global().async { firstResolver.succeed(1) }
        XCTAssertEqual(try first.value, 1)
        XCTAssertEqual(try inner.response.value, 5)
    }

    func testWait_insideAMainQueueJob_onWorkThatNeedsOtherMainQueueWork_isReported() throws {
        let outcome = Response<[ResponseDiagnostic.Kind]>.pending(on: .immediate)
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let line = UInt(#line) - 1
        // The report ends the wait (a cancellation), so that the test takes no longer than it.
        let watch: @Sendable (ResponseDiagnostic) -> Void = { diagnostic in
            if diagnostic.kind == .mainQueueBlocked, diagnostic.line == line { response.cancel() }
        }
        try withDiagnosticWatch(watch) {
            DispatchQueue.main.async {
                // The app's own main-queue job, behind this one: it cannot run during the wait.
                DispatchQueue.global().async { DispatchQueue.main.async { resolver.succeed(1) } }
                let cancelledByTheReport = response.error is CancellationError
                outcome.resolver.succeed(
                    cancelledByTheReport ? diagnostics(forResponseCreatedAt: line).map(\.kind) : [])
            }
            XCTAssertEqual(try outcome.response.wait(timeout: .seconds(30)), [.mainQueueBlocked])
        }
    }

    func testWait_insideAMainQueueJob_onWorkFinishedOffTheMainQueue_isNotReported() throws {
        startRecordingDiagnostics()
        let outcome = Response<Int>.pending(on: .immediate)
        let (response, resolver) = Response<Int>.pending()
        let line = UInt(#line) - 1
        DispatchQueue.main.async {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { resolver.succeed(2) }
            outcome.resolver.resolve(with: response.result)
        }
        XCTAssertEqual(try outcome.response.value, 2)
        // (Long waits left out: a Swift Testing test may lower the process-wide threshold meanwhile.)
        XCTAssertEqual(diagnostics(forResponseCreatedAt: line).map(\.kind).filter { $0 != .longWait }, [])
    }
}
