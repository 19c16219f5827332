import Dispatch
import Foundation
import ResponseKitTesting
import Testing

@testable import ResponseKit

/// One response, several consumers: cancelling what one consumer derived (or the task one
/// consumer awaits in) cancels the shared response only when nobody else waits for it, callbacks
/// and blocking readers included, as Swift's `Task`, Combine's `share()` and Rx's `share()` never
/// cancel work that another subscriber still waits for. `shared.cancel()` still cancels at once.
struct ResponseSharedConsumersTests {
    // MARK: - the shape

    @Test func cancellingAMappedResponse_leavesThePresentersCallbacksAlone() throws {
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        let presented = Recorder<String>()
        shared.onCompletion { presented.record("value \($0)") }.onFailure { presented.record("error \($0)") }
        let mapped = shared.map { $0 * 2 }

        mapped.cancel()

        #expect(mapped.error is CancellationError)
        #expect(!shared.isDone)
        #expect(!resolver.isCancelled)
        #expect(presented.values.isEmpty)
        resolver.succeed(21)
        #expect(presented.values == ["value 21"])
    }

    @MainActor
    @Test func cancellingAMappedResponse_leavesAMainActorPresenterAlone() throws {
        let (shared, resolver) = Response<Int>.pending()
        var failures: [String] = []
        shared.mainActor.onFailure { failures.append("\(type(of: $0))") }
        shared.map { $0 }.cancel()
        resolver.succeed(1)
        #expect(try shared.value == 1)
        #expect(failures.isEmpty)
        #expect(!resolver.isCancelled)
    }

    @Test func eachKindOfCallback_keepsTheSharedResponseRunning() {
        let kinds: [(String, (Response<Int>) -> Void)] = [
            ("onCompletion", { _ = $0.onCompletion { _ in } }),
            ("onFailure", { _ = $0.onFailure { _ in } }),
            ("onResult", { _ = $0.onResult { _ in } }),
            ("onCompletion(on:)", { _ = $0.onCompletion(on: .queue(.global())) { _ in } }),
            ("onResult(on:)", { _ = $0.onResult(on: .immediate) { _ in } }),
        ]
        for (name, register) in kinds {
            let (shared, resolver) = Response<Int>.pending(on: .immediate)
            register(shared)
            shared.map { $0 }.cancel()
            #expect(!resolver.isCancelled, "\(name)")
            resolver.succeed(1)
        }
    }

    @Test func anActorCallback_keepsTheSharedResponseRunning() {
        actor Screen {
            var shown: [Int] = []
            func show(_ value: Int) { shown.append(value) }
        }
        let screen = Screen()
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        shared.onResult(isolatedTo: screen) { screen, result in
            if case .success(let value) = result { screen.show(value) }
        }
        shared.map { $0 }.cancel()
        #expect(!resolver.isCancelled)
        resolver.succeed(1)
    }

    @Test func sharedCancel_stillCancelsAtOnce_andTheCallbacksHearIt() {
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        let failures = Recorder<String>()
        shared.onFailure { failures.record("\(type(of: $0))") }
        _ = shared.map { $0 }
        #expect(shared.cancel())
        #expect(resolver.isCancelled)
        #expect(failures.values == ["CancellationError"])
    }

    // MARK: - blocking readers

    @Test func aReaderAlone_keepsTheSharedResponseRunning() throws {
        for _ in 0..<200 {
            let (shared, resolver) = Response<Int>.pending(on: .immediate)
            let mapped = shared.map { $0 }
            let read = Response<Int>.pending(on: .immediate)
            let registered = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                registered.signal()
                read.resolver.resolve(with: shared.result)
            }
            #expect(registered.wait(timeout: .now() + 30) == .success)
            // Until the reader is registered (the map's observer and the reader's waiter): a bounded
            // wait for a state nothing announces, which costs time only when the code is broken.
            let limit = DispatchTime.now() + 30
            while shared.waitingCallbackCount < 2, DispatchTime.now() < limit { sched_yield() }
            #expect(shared.waitingCallbackCount == 2)
            mapped.cancel()
            #expect(!resolver.isCancelled)
            resolver.succeed(5)
            #expect(try read.response.wait(timeout: .seconds(30)) == 5)
        }
    }

    @Test func aReaderThatGaveUp_keepsNothingRunning() {
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        let mapped = shared.map { $0 }
        #expect(throws: ResponseError.timedOut) { try shared.wait(timeout: .milliseconds(1)) }
        mapped.cancel()
        #expect(resolver.isCancelled)
    }

    @Test func aReaderThatGivesUpLast_cancelsWhatADerivedResponseLetGoOf() throws {
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        let mapped = shared.map { $0 }
        let gaveUp = Response<Bool>.pending(on: .immediate)
        Thread.detachNewThread {
            gaveUp.resolver.succeed((try? shared.wait(timeout: .milliseconds(300))) == nil)
        }
        // Until the reader is registered beside the map's observer (a bounded wait for a state
        // nothing announces, which costs time only when the code is broken).
        let limit = DispatchTime.now() + 30
        while shared.waitingCallbackCount < 2, DispatchTime.now() < limit { sched_yield() }
        mapped.cancel()  // the reader still waits: nothing is cancelled yet
        #expect(!resolver.isCancelled)
        #expect(try gaveUp.response.wait(timeout: .seconds(30)))
        // The reader let go last, and the map had wanted the work cancelled.
        #expect(resolver.isCancelled)
    }

    @Test func aReaderGivingUp_cancelsNothing() {
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        #expect(throws: ResponseError.timedOut) { try shared.wait(timeout: .milliseconds(1)) }
        #expect(!resolver.isCancelled)
        resolver.succeed(1)
    }

    // MARK: - awaiting tasks

    @Test func aCancelledAwait_leavesAResponseWithACallbackRunning() async throws {
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        let values = Recorder<Int>()
        shared.onCompletion { values.record($0) }
        let task = Task { try await shared.get() }
        await yieldUntil { shared.waitingCallbackCount == 2 }
        task.cancel()
        #expect(await task.result.isFailure)
        #expect(!resolver.isCancelled)
        resolver.succeed(3)
        #expect(values.values == [3])
    }

    @Test func aCancelledAwait_cancelsAResponseNobodyElseWaitsFor() async throws {
        let (shared, resolver) = Response<Int>.pending(on: .immediate)
        let task = Task { try await shared.get() }
        await yieldUntil { shared.waitingCallbackCount == 1 }
        task.cancel()
        #expect(await task.result.isFailure)
        #expect(resolver.isCancelled)
    }

    // MARK: - what the claim rule still does

    @Test func aChainWhoseLastConsumerGoesAway_stillCancelsItsWork() {
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let shown = Recorder<String>()
        let end = work.map { $0 + 1 }.map { "\($0)" }
        end.onFailure { shown.record("\(type(of: $0))") }  // the chain's own consumer
        end.cancel()
        #expect(resolver.isCancelled)
        #expect(shown.values == ["CancellationError"])
    }

    @Test func aTimeout_cancelsItsSource_onlyWhenNobodyElseWaits() {
        let scheduler = ManualScheduler()
        let (observed, observedResolver) = Response<Int>.pending(on: .immediate)
        observed.onCompletion { _ in }
        let (alone, aloneResolver) = Response<Int>.pending(on: .immediate)
        let first = observed.timeout(after: .seconds(1), scheduler: scheduler)
        let second = alone.timeout(after: .seconds(1), scheduler: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(first.error as? ResponseError == .deadlineExceeded)
        #expect(second.error as? ResponseError == .deadlineExceeded)
        #expect(!observedResolver.isCancelled)
        #expect(aloneResolver.isCancelled)
        observedResolver.succeed(1)
    }

    @Test func aRaceLoser_withAnObserverOfItsOwn_goesOn() throws {
        let (fast, fastResolver) = Response<Int>.pending(on: .immediate)
        let (slow, slowResolver) = Response<Int>.pending(on: .immediate)
        let (ignored, ignoredResolver) = Response<Int>.pending(on: .immediate)
        let slowValues = Recorder<Int>()
        slow.onCompletion { slowValues.record($0) }
        let winner = Response.race([fast, slow, ignored], on: .immediate)
        fastResolver.succeed(1)
        #expect(try winner.value == 1)
        #expect(!slowResolver.isCancelled)
        #expect(ignoredResolver.isCancelled)
        slowResolver.succeed(2)
        #expect(slowValues.values == [2])
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
