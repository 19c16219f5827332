import ResponseKit
import ResponseKitTesting
import Testing

/// The rule: whoever waits for a response holds a claim on it (a derived response, an awaiting
/// task, a callback, a blocking read); when a derived response or a task lets go of the last claim
/// while the response is pending, it is cancelled. Callbacks and blocking reads never let go early.
struct ResponseCancellationPropagationTests {
    @Test func cancellingADerivedResponse_cancelsItsSource() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let mapped = source.map { $0 + 1 }
        mapped.cancel()
        #expect(resolver.isCancelled)
    }

    @Test func cancellingTheEndOfAChain_cancelsEveryStep() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        var steps = [source]
        for _ in 0..<5 { steps.append(steps.last!.map { $0 + 1 }) }
        steps.last!.cancel()
        #expect(resolver.isCancelled)
        #expect(steps.allSatisfy { $0.isCancelled })
    }

    @Test func sourceStaysAlive_whileAnotherDerivedResponseNeedsIt() throws {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let first = source.map { $0 + 1 }
        let second = source.map { $0 * 10 }

        first.cancel()
        #expect(!resolver.isCancelled)

        resolver.succeed(2)
        #expect(try second.value == 20)
        #expect(first.error is CancellationError)
    }

    @Test func sourceIsCancelled_whenEveryDerivedResponseIsCancelled() {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let first = source.map { $0 }
        let second = source.map { $0 }
        first.cancel()
        second.cancel()
        #expect(resolver.isCancelled)
    }

    @Test func callbacksOnTheSource_keepItRunning_whenADerivedResponseIsCancelled() throws {
        let (source, resolver) = Response<Int>.pending(on: .immediate)
        let failures = Recorder<String>()
        source.onFailure { failures.record("\(type(of: $0))") }
        source.map { $0 }.cancel()
        #expect(!resolver.isCancelled)
        #expect(failures.values.isEmpty)
        resolver.succeed(1)
        #expect(try source.value == 1)
    }

    @Test func cancellingADoneSource_throughADerivedOne_changesNothing() throws {
        let source = Response.succeeded(1, on: .immediate)
        let mapped = source.map { $0 }
        #expect(!mapped.cancel())
        #expect(try source.value == 1)
    }
}
