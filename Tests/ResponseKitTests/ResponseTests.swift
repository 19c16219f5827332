import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

struct ResponseTests {
    // MARK: - pending

    @Test func pending_isNotDone_untilResolved() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        #expect(!response.isDone)
        #expect(!response.isSuccessful)

        #expect(resolver.succeed(42))

        #expect(response.isDone)
        #expect(response.isSuccessful)
        #expect(try response.value == 42)
        #expect(response.error == nil)
    }

    @Test func pending_usesMainExecutorByDefault() {
        let (response, responseResolver) = Response<Int>.pending()
        defer { withExtendedLifetime(responseResolver) {} }  // pending on purpose: never resolved, never abandoned
        #expect("\(response.executor)" == "main")
    }

    @Test func succeededVoid_needsNoArgument_likeTheResolversSucceed() throws {
        let started: Response<Void> = .succeeded()
        #expect(started.isSuccessful)
        #expect("\(started.executor)" == "main")
        try started.value
        let inline = Response<Void>.succeeded(on: .immediate)
        #expect("\(inline.executor)" == "immediate")
        #expect(inline.line == UInt(#line) - 2)
    }

    @Test func failedResolution_isDoneButNotSuccessful() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        resolver.fail(TestError(code: 7))
        #expect(response.isDone)
        #expect(!response.isSuccessful)
        #expect(response.error as? TestError == TestError(code: 7))
        #expect(throws: TestError(code: 7)) { try response.value }
    }

    @Test func resolverResolve_acceptsAResult() throws {
        let (response, resolver) = Response<String>.pending(on: .immediate)
        #expect(resolver.resolve(with: .success("ok")))
        #expect(try response.value == "ok")
    }

    @Test func voidResolver_succeedsWithoutArgument() throws {
        let (response, resolver) = Response<Void>.pending(on: .immediate)
        #expect(resolver.succeed())
        #expect(response.isSuccessful)
    }

    // MARK: - succeeded / failed

    @Test func succeeded_isDoneAtOnce() throws {
        let response = Response.succeeded(1)
        #expect(response.isDone)
        #expect(response.isSuccessful)
        #expect(try response.value == 1)
    }

    @Test func failed_isDoneAtOnce() {
        let response = Response<Int>.failed(TestError())
        #expect(response.isDone)
        #expect(!response.isSuccessful)
        #expect(response.error is TestError)
    }

    // MARK: - init(on:)

    @Test func initOnQueue_runsBodyAsynchronously_andSucceeds() throws {
        let queue = DispatchQueue(label: "work")
        queue.suspend()
        let response = Response<Int>(on: queue, executor: .immediate) { 6 * 7 }
        #expect(!response.isDone)  // the queue has not run the body yet

        queue.resume()
        #expect(try response.value == 42)
    }

    @Test func initOnQueue_failsWithTheBodysError() {
        let response = Response<Int>(on: .global(), executor: .immediate) { throw TestError(code: 3) }
        #expect(response.error as? TestError == TestError(code: 3))
    }

    @Test func initOnQueue_skipsBody_whenCancelledBeforeItStarts() {
        let queue = DispatchQueue(label: "work")
        queue.suspend()
        let ran = Recorder<Bool>()
        let response = Response<Int>(on: queue, executor: .immediate) {
            ran.record(true)
            return 1
        }
        response.cancel()
        queue.resume()
        queue.sync {}  // the body's job has been dequeued by now

        #expect(ran.values.isEmpty)
        #expect(response.error is CancellationError)
    }

    // MARK: - description

    @Test func description_showsStateAndCreationSite() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        #expect(response.description.contains("pending"))
        #expect(response.description.contains("ResponseTests.swift"))
        resolver.succeed(5)
        #expect(response.description.contains("succeeded with 5"))
        #expect(response.debugDescription.contains("executor: immediate"))
    }
}
