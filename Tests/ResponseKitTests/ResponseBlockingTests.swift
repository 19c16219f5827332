import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// Blocking reads off the main thread (Swift Testing runs tests on worker threads).
/// The main-thread cases are in `MainThreadBlockingTests`, on XCTest, which runs on the main thread.
struct ResponseBlockingTests {
    // MARK: - value

    @Test func value_waitsForAResultFromAnotherThread() throws {
        let (response, resolver) = Response<Int>.pending()
        DispatchQueue.global().async { resolver.succeed(42) }
        #expect(try response.value == 42)
        #expect(response.isDone)
    }

    @Test func value_throwsTheFailure() {
        let (response, resolver) = Response<Int>.pending()
        DispatchQueue.global().async { resolver.fail(TestError(code: 2)) }
        #expect(throws: TestError(code: 2)) { try response.value }
    }

    @Test func value_doesNotNeedTheMainQueue_forAPendingMainResponse() throws {
        // The callbacks of this response go to the main queue, but the blocking read must not.
        let (response, resolver) = Response<String>.pending(on: .main)
        DispatchQueue.global().async { resolver.succeed("done") }
        #expect(try response.value == "done")
    }

    @Test func error_isNilOnSuccess_andTheFailureOtherwise() {
        let ok = Response<Int>(on: .global(), executor: .immediate) { 1 }
        let bad = Response<Int>(on: .global(), executor: .immediate) { throw TestError(code: 9) }
        #expect(ok.error == nil)
        #expect(bad.error as? TestError == TestError(code: 9))
    }

    @Test func result_returnsTheOutcome() throws {
        let (response, resolver) = Response<Int>.pending()
        DispatchQueue.global().async { resolver.succeed(3) }
        #expect(try response.result.get() == 3)
    }

    @Test func manyWaiters_allWakeUp() {
        let (response, resolver) = Response<Int>.pending()
        let woke = Recorder<Int>()
        let group = DispatchGroup()
        for _ in 0..<8 {
            DispatchQueue.global().async(group: group) {
                if let value = try? response.value { woke.record(value) }
            }
        }
        resolver.succeed(5)
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(woke.values == Array(repeating: 5, count: 8))
    }

    // MARK: - wait(timeout:)

    @Test func waitTimeout_throwsTimedOut_whenNotDoneInTime() {
        let (response, responseResolver) = Response<Int>.pending()
        defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
        #expect(throws: ResponseError.timedOut) { try response.wait(timeout: .milliseconds(20)) }
        #expect(!response.isDone)  // giving up does not cancel
    }

    @Test func waitTimeout_returnsTheValue_whenDoneInTime() throws {
        let (response, resolver) = Response<Int>.pending()
        DispatchQueue.global().async { resolver.succeed(8) }
        #expect(try response.wait(timeout: .seconds(30)) == 8)
    }

    @Test func waitTimeout_throwsTheFailure_notATimeout() {
        let response = Response<Int>.failed(TestError(code: 6))
        #expect(throws: TestError(code: 6)) { try response.wait(timeout: .zero) }
    }

    @Test func waitTimeout_zero_onlyChecks() {
        let (response, responseResolver) = Response<Int>.pending()
        defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
        #expect(throws: ResponseError.timedOut) { try response.wait(timeout: .zero) }
    }

    @Test func timedOutError_isRecognisable() {
        let error: any Error = ResponseError.timedOut
        #expect((error as? ResponseError) == .timedOut)
        #expect("\(error)".contains("timedOut"))
    }

    @Test func aWaitThatGivesUp_throwsTimedOut_notTheTimeoutOperatorsDeadlineExceeded() {
        let (response, responseResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
        #expect(throws: ResponseError.timedOut) { try response.wait(timeout: .zero) }
        #expect(ResponseError.timedOut != .deadlineExceeded)
        #expect("\(ResponseError.timedOut)".contains("goes on"))
        #expect(!response.isDone, "only the wait ended")
    }
}
