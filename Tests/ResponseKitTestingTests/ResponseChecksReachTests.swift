import Dispatch
import Foundation
import ResponseKit
import Testing

@testable import ResponseKitTesting

/// Every response the test's code makes is the test's, on any thread (issue 33, 3): those made by
/// the transforms, callbacks and bodies of its responses, and, through
/// `ResponseChecks.propagating`, by work it hands to a thread or queue of its own. And a problem
/// reported as the test's wait ends is the test's: it comes before the waiter wakes.
struct ResponseChecksReachTests {
    /// A response that fails as `abandoned` at once: its resolver is dropped here.
    static func abandonedResponse() -> Response<Int> {
        Response<Int>.pending(on: .immediate).response
    }

    // MARK: - made by the test's responses, off its thread

    @Test func aResponseMadeInAFlatMapOnAGlobalThread_isTheTests() {
        let problems = ResponseChecks.run {
            let (upstream, resolver) = Response<Int>.pending(on: .immediate)
            let chained = upstream.flatMap { _ in Self.abandonedResponse() }
            // Resolved on a global thread, where no test is current: the flatMap closure runs there.
            DispatchQueue.global().async { [resolver] in resolver.succeed(1) }
            #expect(chained.error as? ResponseError == .abandoned)
        }
        #expect(problems.map(\.kind) == [.abandoned])
    }

    @Test func aResponseMadeInATransformOnAnotherExecutor_isTheTests() {
        let problems = ResponseChecks.run {
            let chained = Response<Int>.succeeded(1, on: .immediate)
                .flatMap(on: .queue(.global())) { _ in Self.abandonedResponse() }
            #expect(chained.error as? ResponseError == .abandoned)
        }
        #expect(problems.map(\.kind) == [.abandoned])
    }

    @Test func aResponseMadeInACallbackOnAQueue_isTheTests() {
        let problems = ResponseChecks.run {
            let made = Response<Bool>.pending(on: .immediate)
            Response<Int>.succeeded(1, on: .queue(.global())).onCompletion { _ in
                let inner = Self.abandonedResponse()
                made.resolver.succeed(inner.error != nil)
            }
            #expect((try? made.response.value) == true)
        }
        #expect(problems.map(\.kind) == [.abandoned])
    }

    @Test func aResponseMadeInAResponseBody_isTheTests() {
        let problems = ResponseChecks.run {
            let body = Response<Bool>(on: .global()) { Self.abandonedResponse().error != nil }
            #expect((try? body.value) == true)
        }
        #expect(problems.map(\.kind) == [.abandoned])
    }

    // MARK: - handed to a thread of the test's own

    @Test func workHandedToAThread_isTheTests_throughPropagating() {
        let problems = ResponseChecks.run {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread(
                block: ResponseChecks.propagating {
                    _ = Self.abandonedResponse()
                    done.signal()
                })
            thread.start()
            done.wait()
        }
        #expect(problems.map(\.kind) == [.abandoned])
    }

    @Test func propagating_outsideTheChecks_runsTheWorkAsItIs() {
        #expect(ResponseChecks.propagating { 7 }() == 7)
    }

    // MARK: - not the test's

    /// Responses another test's main-queue job makes, kept referenced until the test resolves them.
    static let madeByOthers = LockedBox.make([(response: Response<Int>, resolver: Resolver<Int>)]())

    /// A read on the main queue runs ResponseKit's main-queue jobs, every test's: the responses
    /// those jobs make are not the reading test's.
    @MainActor @Test func aReadOnTheMainQueue_runsOtherTestsJobs_withoutAdoptingTheirResponses() {
        let other = Response<Int>.succeeded(1)  // made outside any checks; delivers on the main queue
        other.mainActor.onCompletion { _ in
            let made = Response<Int>.pending(on: .immediate)
            Self.madeByOthers.withLock { $0.append(made) }
        }
        let problems = ResponseChecks.run {
            // Done at once: the read runs the main-queue jobs queued so far, the other's too.
            _ = try? Response<Int>.succeeded(2).value
        }
        #expect(Self.madeByOthers.withLock { $0.count } == 1)  // the other's callback ran in the read
        #expect(problems.isEmpty)
        for made in Self.madeByOthers.withLock({ $0 }) { made.resolver.succeed(0) }
        Self.madeByOthers.withLock { $0.removeAll() }
    }

    // MARK: - reported before the waiter wakes

    /// A resolver dropped on a global queue while the test blocks on its response: the report
    /// must reach the test's checks before its read returns, every time.
    @Test func aResolverDroppedOnAGlobalQueue_isReportedBeforeTheReadReturns() {
        var missed = 0
        for _ in 0..<300 {
            let problems = ResponseChecks.run {
                let response = Self.handedToAGlobalQueueThenDropped()
                _ = response.error
            }
            if problems.map(\.kind) != [.abandoned] { missed += 1 }
        }
        #expect(missed == 0)
    }

    /// A pending response whose only resolver goes to a global queue job, dropped when it ends.
    static func handedToAGlobalQueueThenDropped() -> Response<Int> {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        DispatchQueue.global().async { [resolver] in _ = resolver }
        return response
    }
}

/// No test hangs in silence (issue 33, 2): under the checks, a read that can never finish gives up
/// at the test's wait limit, throwing `ResponseError.waitLimitExceeded`, and the blocked main queue
/// and the limit are the test's problems.
struct ResponseChecksWaitLimitTests {
    @Test func aReadThatCanNeverFinish_inAMainQueueJob_endsAtTheWaitLimit() throws {
        let scope = ResponseCheckScope(testName: "aDeadlock()", waitLimit: 6_000_000_000)
        let finished = Response<(onMainThread: Bool, error: ResponseError?)>.pending(on: .immediate)
        scope.run {
            DispatchQueue.main.async(
                execute: ResponseChecks.propagating {
                    let (response, resolver) = Response<Int>.pending(on: .immediate)
                    // The work needs another main-queue job, which this read holds up: a deadlock
                    // (unless the job runs on the main thread, whose read keeps the main queue going).
                    DispatchQueue.main.async { resolver.succeed(1) }
                    let error = response.error as? ResponseError
                    finished.resolver.succeed((Thread.isMainThread, error))
                })
        }
        let outcome = try finished.response.value
        let kinds = scope.finish().diagnostics.map(\.kind)
        if outcome.onMainThread {
            #expect(outcome.error == nil && kinds.isEmpty)
        } else {
            #expect(outcome.error == .waitLimitExceeded)
            #expect(kinds == [.mainQueueBlocked, .longWait])
        }
    }

    @Test func aReadOffTheMainQueue_endsAtTheWaitLimit_andThrows() {
        let scope = ResponseCheckScope(testName: "aLongWait()", waitLimit: 200_000_000)
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let thrown = scope.run { () -> (any Error)? in
            do {
                _ = try response.value
                return nil
            } catch {
                return error
            }
        }
        resolver.succeed(1)
        #expect(thrown as? ResponseError == .waitLimitExceeded)
        #expect(scope.finish().diagnostics.map(\.kind) == [.longWait])
    }

    @Test func theTraitsWaitLimit_isTheLongWaitThreshold_byDefault() {
        #expect(ResponseChecksTrait().waitLimit == ResponseDiagnostics.longWaitThreshold)
        #expect(ResponseChecksTrait(waitLimit: .seconds(3)).waitLimit == .seconds(3))
    }

    @Test func aProblemsLocation_isTheRealPathOfItsFile() {
        let problem = ResponseCheckProblem(kind: .abandoned, message: "m", file: #fileID, line: 3)
        #expect(problem.sourceLocation(near: #filePath).filePath == #filePath)
    }
}
