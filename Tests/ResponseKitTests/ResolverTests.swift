import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

struct ResolverTests {
    // MARK: - first result wins

    init() { startRecordingDiagnostics() }  // the double resolves below are reported, not printed

    @Test func succeed_returnsFalse_whenAlreadyDone() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        #expect(resolver.succeed(1))
        #expect(!resolver.succeed(2))
        #expect(!resolver.fail(TestError()))
        #expect(try response.value == 1)
    }

    @Test func fail_returnsFalse_whenAlreadyDone() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        #expect(resolver.fail(TestError(code: 1)))
        #expect(!resolver.succeed(2))
        #expect(response.error as? TestError == TestError(code: 1))
    }

    // MARK: - cancel

    @Test func cancel_beforeCompletion_failsWithCancellationError() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let failures = Recorder<String>()
        response.onFailure { failures.record(String(describing: type(of: $0))) }

        #expect(response.cancel())

        #expect(failures.values == ["CancellationError"])
        #expect(response.isDone)
        #expect(response.isCancelled)
        #expect(resolver.isCancelled)
        #expect(response.error is CancellationError)
        #expect(throws: CancellationError.self) { try response.value }
    }

    @Test func cancel_afterCompletion_changesNothing() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let handlerRuns = Recorder<Bool>()
        resolver.onCancel { handlerRuns.record(true) }
        resolver.succeed(3)

        #expect(!response.cancel())

        #expect(!response.isCancelled)
        #expect(!resolver.isCancelled)
        #expect(try response.value == 3)
        #expect(handlerRuns.values.isEmpty)
    }

    @Test func cancel_twice_cancelsOnce() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let handlerRuns = Recorder<Bool>()
        resolver.onCancel { handlerRuns.record(true) }
        #expect(response.cancel())
        #expect(!response.cancel())
        #expect(handlerRuns.count == 1)
    }

    @Test func resolvingAfterCancel_isIgnored() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        response.cancel()
        #expect(!resolver.succeed(1))
        #expect(response.error is CancellationError)
    }

    @Test func onCancel_runsBeforeFailureCallbacks() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let events = Recorder<String>()
        response.onFailure { _ in events.record("failure callback") }
        resolver.onCancel { events.record("work told") }
        response.cancel()
        #expect(events.values == ["work told", "failure callback"])
    }

    @Test func onCancel_handlers_allRunOnce_inRegistrationOrder() {
        // The first handler is kept apart from the others (no array for the common single one).
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let events = Recorder<Int>()
        for index in 0..<3 { resolver.onCancel { events.record(index) } }
        response.cancel()
        response.cancel()
        #expect(events.values == [0, 1, 2])
    }

    @Test func onCancel_handlers_neverRun_whenTheWorkFinishesFirst() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let events = Recorder<Int>()
        for index in 0..<2 { resolver.onCancel { events.record(index) } }
        resolver.succeed(1)
        response.cancel()
        #expect(events.values.isEmpty)
    }

    @Test func onCancel_runsAtOnce_whenAlreadyCancelled() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        response.cancel()
        let handlerRuns = Recorder<Bool>()
        resolver.onCancel { handlerRuns.record(true) }
        #expect(handlerRuns.count == 1)
    }

    @Test func longWork_canPollForCancellation_andStopEarly() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let started = DispatchSemaphore(value: 0)
        let finished = Response<Int>.pending(on: .immediate)
        DispatchQueue.global().async {
            started.signal()
            var steps = 0
            while !resolver.isCancelled {  // a real loop would do a slice of work here
                steps += 1
            }
            finished.resolver.succeed(steps)
        }
        #expect(started.wait(timeout: .now() + 30) == .success)
        response.cancel()
        #expect(try finished.response.wait(timeout: .seconds(30)) >= 0)
    }

    @Test func cancel_racingWithSuccess_deliversExactlyOneOutcome() {
        for _ in 0..<2_000 {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let outcomes = Recorder<String>()
            response.onCompletion { _ in outcomes.record("success") }
            response.onFailure { _ in outcomes.record("failure") }
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 { response.cancel() } else { resolver.succeed(1) }
            }
            #expect(outcomes.count == 1)
            #expect(response.isCancelled == (outcomes.values == ["failure"]))
        }
    }
}
