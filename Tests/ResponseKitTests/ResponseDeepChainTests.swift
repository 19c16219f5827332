import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// Long chains finish inline with a flat stack, and a response made and resolved inside any step
/// of one finishes at once: nothing is deferred past the code that waits for it.
struct ResponseDeepChainTests {
    /// A chain of `length` inline steps from `source`; step `index` (counting from 1) runs `body`.
    static func chain(
        from source: Response<Int>,
        length: Int,
        at index: Int,
        _ body: @escaping @Sendable () -> Void
    ) -> Response<Int> {
        var chain = source
        for step in 1...length {
            chain = chain.map { value in
                if step == index { body() }
                return value + 1
            }
        }
        return chain
    }

    @Test(arguments: [1, 63, 64, 65, 200, 5_000])
    func aBlockingWaitInsideADeepStep_onAnIndependentInlineChain_finishesAtOnce(depth: Int) throws {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let inner = Recorder<Result<Int, ResponseError>>()
        let chain = Self.chain(from: source, length: depth + 1, at: depth) {
            do {
                inner.record(
                    .success(
                        try Response.succeeded(21, on: .immediate).map { $0 * 2 }.wait(timeout: .milliseconds(400))))
            } catch {
                inner.record(.failure(error as? ResponseError ?? .validationFailed))
            }
        }
        resolver.succeed(0)
        #expect(try chain.value == depth + 1)
        #expect(inner.values == [.success(42)])
    }

    @Test func readingValueInsideADeepStep_onAnIndependentChain_doesNotHang() throws {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let inner = Recorder<Int>()
        let chain = Self.chain(from: source, length: 300, at: 250) {
            inner.record((try? Response.succeeded(1, on: .immediate).map { $0 + 1 }.value) ?? -1)
        }
        resolver.succeed(0)
        #expect(try chain.value == 300)
        #expect(inner.values == [2])
    }

    @Test func immediateCallbacks_runBeforeSucceedReturns_atAnyDepth() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let inner = Recorder<String>()
        let chain = Self.chain(from: source, length: 500, at: 400) {
            let (response, innerResolver) = Response<Int>.pending(on: .immediate)
            response.onCompletion { _ in inner.record("callback") }
            innerResolver.succeed(1)
            inner.record("after succeed")
        }
        let ends = Recorder<Int>()
        chain.onCompletion { ends.record($0) }
        resolver.succeed(0)
        #expect(inner.values == ["callback", "after succeed"])
        #expect(ends.values == [500], "the whole chain finished before succeed returned")
    }

    @Test func aChainWhoseStepsAreEachTheOnlyObserver_runsEveryStepAtOneStackDepth() throws {
        // Nested, each step adds the frames of a completion and a delivery (a kilobyte or more in
        // debug); flat, every step runs from the same loop. Fifty steps tell the two apart.
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let depths = Recorder<UInt>()
        var chain = source
        for _ in 0..<50 {
            chain = chain.map { value in
                var local = value
                depths.record(withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) })
                return local + 1
            }
        }
        resolver.succeed(0)
        #expect(try chain.value == 50)
        let addresses = depths.values
        #expect(addresses.count == 50)
        let spread = (addresses.max() ?? 0) - (addresses.min() ?? 0)
        #expect(spread < 1_024, "the steps ran \(spread) bytes of stack apart")
    }

    @Test func aChainWhoseDeliveriesEndUnderTheLock_runsEveryStepAtOneStackDepth() throws {
        // Each step is registered by a callback of its upstream, so it joins a delivery under way:
        // that response then ends its deliveries under the lock (as every delivery does on Apple
        // platforms), not with the compare-and-swap, and the step's response must still run from
        // the loop, not inside the delivery it left.
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let depths = Recorder<UInt>()
        let end = Response<Int>.pending(on: .immediate)
        Self.extend(source, by: 50, recordingDepthsIn: depths) { end.resolver.succeed($0) }
        resolver.succeed(0)
        #expect(try end.response.value == 50)
        let addresses = depths.values
        #expect(addresses.count == 50)
        let spread = (addresses.max() ?? 0) - (addresses.min() ?? 0)
        #expect(spread < 1_024, "the steps ran \(spread) bytes of stack apart")
    }

    /// Extends `response` by `steps` inline steps, each registered by a callback of the response
    /// before it while that response delivers; `last` gets the last step's value.
    static func extend(
        _ response: Response<Int>,
        by steps: Int,
        recordingDepthsIn depths: Recorder<UInt>,
        then last: @escaping @Sendable (Int) -> Void
    ) {
        response.onCompletion { _ in
            let next = response.map { value in
                var local = value
                depths.record(withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) })
                return local + 1
            }
            if steps == 1 {
                next.onCompletion(last)
            } else {
                extend(next, by: steps - 1, recordingDepthsIn: depths, then: last)
            }
        }
    }

    @Test func aStepsResponse_finishesBeforeItsUpstreamsNextCallbackRuns() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let order = Recorder<String>()
        source.map { $0 + 1 }.map { $0 + 1 }.onCompletion { _ in order.record("end of the chain") }
        source.onCompletion { _ in order.record("next callback") }
        resolver.succeed(0)
        #expect(order.values == ["end of the chain", "next callback"])
    }

    @Test func aCallbackRegisteredOnTheUpstreamInsideAStep_runsAfterTheStepsResponseFinishes() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let order = Recorder<String>()
        source.map { value in
            source.onCompletion { _ in order.record("registered inside the step") }
            order.record("step")
            return value + 1
        }
        .onCompletion { _ in order.record("step's response") }
        resolver.succeed(0)
        #expect(order.values == ["step", "step's response", "registered inside the step"])
    }

    @Test func aChainOf100_000InlineSteps_finishesWithoutOverflowingTheStack() throws {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        var chain = source
        for _ in 0..<100_000 { chain = chain.map { $0 &+ 1 } }
        let ends = Recorder<Int>()
        chain.onCompletion { ends.record($0) }
        resolver.succeed(0)
        #expect(ends.values == [100_000])
    }

    @Test func aChainOf100_000Steps_thatEachRegisterOnTheirUpstream_finishesWithoutOverflowingTheStack() {
        // Each step's callback joins its upstream's delivery, which must run the step's response
        // before it: that must not nest one level per step.
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let late = Recorder<Int>()
        var chain = source
        for _ in 0..<100_000 {
            let upstream = chain
            chain = upstream.map { value in
                upstream.onCompletion { _ in late.record(value) }
                return value &+ 1
            }
        }
        let ends = Recorder<Int>()
        chain.onCompletion { ends.record($0) }
        resolver.succeed(0)
        #expect(ends.values == [100_000])
        #expect(late.values.count == 100_000)
    }

    @Test func aChainOf100_000FlatMapsOverFinishedResponses_finishesFlat() throws {
        var chain = Response<Int>.succeeded(0, on: .immediate)
        for _ in 0..<100_000 { chain = chain.flatMap { .succeeded($0 &+ 1, on: .immediate) } }
        #expect(try chain.value == 100_000)
    }

    @Test func cancellingTheEndOfA100_000StepChain_cancelsItsSource_flat() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        var chain = source
        for _ in 0..<100_000 { chain = chain.map { $0 &+ 1 } }
        chain.cancel()
        #expect(resolver.isCancelled)
        #expect(source.error is CancellationError)
    }
}

/// `flatMap` and `flatMapError` that return the response they make would wait for themselves
/// forever: it fails with `ResponseError.returnedSelf` and is reported (Promises/A+ 2.3.1).
struct ResponseReturnedSelfTests {
    init() { startRecordingDiagnostics() }

    final class Box: @unchecked Sendable {
        // Safety: written once before the source is resolved, read after, on one thread.
        var response: Response<Int>?
    }

    @Test func flatMapReturningItsOwnResponse_failsWithReturnedSelf_andIsReported() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let box = Box()
        let creationLine = UInt(#line + 1)
        let made = source.flatMap { _ in box.response! }
        box.response = made
        resolver.succeed(1)
        #expect(made.error as? ResponseError == .returnedSelf)
        #expect(diagnostics(forResponseCreatedAt: creationLine).map(\.kind) == [.returnedSelf])
    }

    @Test func flatMapErrorReturningItsOwnResponse_failsWithReturnedSelf() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let box = Box()
        let made = source.flatMapError { _ in box.response! }
        box.response = made
        resolver.fail(TestError(code: 1))
        #expect(made.error as? ResponseError == .returnedSelf)
    }
}

/// Transformations and side effects attached to one response start in registration order,
/// wherever it finishes (Promises/A+ 2.2.6), and by default never need the main thread.
struct ResponseSiblingOrderTests {
    @Test func siblingMaps_startInRegistrationOrder_whenFinishedOnTheMainQueue() async throws {
        try await onOwnThread { try Self.siblingMapsFinishedOnMain() }
    }

    static func siblingMapsFinishedOnMain() throws {
        for _ in 0..<300 {
            let (source, resolver) = Response<Int>.pending()
            let starts = Recorder<Int>()
            let mapped = (0..<64).map { index in
                source.map { value -> Int in
                    starts.record(index)
                    return value
                }
            }
            DispatchQueue.main.async { resolver.succeed(1) }
            _ = try Response.all(mapped, on: .immediate).value
            #expect(starts.values == Array(0..<64))
        }
    }

    @Test func siblingIntercepts_startInRegistrationOrder_whenAlreadyFinishedOnTheMainQueue() async throws {
        try await onOwnThread { try Self.siblingInterceptsOnFinishedOnMain() }
    }

    static func siblingInterceptsOnFinishedOnMain() throws {
        for _ in 0..<300 {
            let source = Response<Int>.succeeded(1)
            let starts = Recorder<Int>()
            let registered = Response<[Response<Int>]>.pending(on: .immediate)
            DispatchQueue.main.async {
                registered.resolver.succeed((0..<64).map { index in source.intercept { _ in starts.record(index) } })
            }
            _ = try Response.all(try registered.response.value, on: .immediate).value
            #expect(starts.values == Array(0..<64))
        }
    }
}
