import Dispatch
import ResponseKit
import ResponseKitTesting
import Synchronization
import Testing

struct ResponseCallbacksTests {
    // MARK: - onCompletion

    @Test func onCompletion_runsOnce_whenAttachedBeforeSuccess() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let seen = Recorder<Int>()
        response.onCompletion { seen.record($0) }
        #expect(seen.values.isEmpty)

        resolver.succeed(1)

        #expect(seen.values == [1])
    }

    @Test func onCompletion_runsOnce_whenAttachedAfterSuccess() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        resolver.succeed(9)
        let seen = Recorder<Int>()

        response.onCompletion { seen.record($0) }

        #expect(seen.values == [9])
    }

    @Test func onCompletion_neverRuns_whenResponseFails() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let seen = Recorder<Int>()
        response.onCompletion { seen.record($0) }
        resolver.fail(TestError())
        response.onCompletion { seen.record($0) }
        #expect(seen.values.isEmpty)
        #expect(response.error is TestError)
    }

    // MARK: - onFailure

    @Test func onFailure_runsOnce_whenAttachedBeforeFailure() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let seen = Recorder<Int>()
        response.onFailure { seen.record(($0 as? TestError)?.code ?? -1) }

        resolver.fail(TestError(code: 4))
        response.cancel()  // already done: no second delivery

        #expect(seen.values == [4])
    }

    @Test func onFailure_runsOnce_whenAttachedAfterFailure() {
        let response = Response<Int>.failed(TestError(code: 8), on: .immediate)
        let seen = Recorder<Int>()
        response.onFailure { seen.record(($0 as? TestError)?.code ?? -1) }
        #expect(seen.values == [8])
    }

    @Test func onFailure_neverRuns_whenResponseSucceeds() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let seen = Recorder<String>()
        response.onFailure { seen.record("\($0)") }
        resolver.succeed(1)
        response.onFailure { seen.record("\($0)") }
        #expect(seen.values.isEmpty)
    }

    @Test func chaining_registersBothCallbacks() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let seen = Recorder<String>()
        response
            .onCompletion { seen.record("value \($0)") }
            .onFailure { _ in seen.record("failure") }
        resolver.succeed(3)
        #expect(seen.values == ["value 3"])
    }

    @Test func onResult_seesEitherOutcome() {
        let ok = Response<Int>.succeeded(1, on: .immediate)
        let bad = Response<Int>.failed(TestError(), on: .immediate)
        let seen = Recorder<Bool>()
        ok.onResult { seen.record((try? $0.get()) != nil) }
        bad.onResult { seen.record((try? $0.get()) != nil) }
        #expect(seen.values == [true, false])
    }

    // MARK: - order

    @Test func callbacks_runInRegistrationOrder_inline() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let order = Recorder<Int>()
        for index in 0..<100 {
            if index.isMultiple(of: 3) {
                response.onResult { _ in order.record(index) }
            } else {
                response.onCompletion { _ in order.record(index) }
            }
        }
        resolver.succeed(0)
        #expect(order.values == Array(0..<100))
    }

    @Test func callbacks_runInRegistrationOrder_onASerialQueue() throws {
        let queue = DispatchQueue(label: "callbacks")
        let (response, resolver) = Response<Int>.pending(on: .queue(queue))
        let order = Recorder<Int>()
        for index in 0..<50 {
            response.onCompletion { _ in order.record(index) }
        }
        // Registered last, so it runs last on the serial queue. (Not `value` and `queue.sync {}`:
        // off the main queue a read may return while the delivery still enqueues the callbacks.)
        let ranLast = Response<Void>.pending(on: .immediate)
        response.onCompletion { _ in ranLast.resolver.succeed() }
        DispatchQueue.global().async { resolver.succeed(1) }
        try ranLast.response.value
        #expect(order.values == Array(0..<50))
    }

    @Test func lateCallbacks_runAfterEarlierOnes_onTheManualExecutor() {
        let manual = ManualExecutor()
        let (response, resolver) = Response<Int>.pending(on: manual.executor)
        let order = Recorder<String>()
        response.onCompletion { _ in order.record("early") }
        resolver.succeed(1)
        response.onCompletion { _ in order.record("late") }

        #expect(order.values.isEmpty)
        #expect(manual.runAll() == 2)
        #expect(order.values == ["early", "late"])
    }

    // MARK: - races

    @Test func resolvingAndRegisteringRace_deliversExactlyOnce() {
        for iteration in 0..<3_000 {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let calls = Atomic<Int>(0)
            let failures = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 3) { lane in
                switch lane {
                case 0: resolver.succeed(iteration)
                case 1:
                    response.onCompletion { value in
                        if value == iteration { calls.add(1, ordering: .relaxed) }
                    }
                default: response.onFailure { _ in failures.add(1, ordering: .relaxed) }
                }
            }
            #expect(calls.load(ordering: .relaxed) == 1, "iteration \(iteration)")
            #expect(failures.load(ordering: .relaxed) == 0)
        }
    }

    @Test func competingResolvers_haveExactlyOneWinner() throws {
        for _ in 0..<1_000 {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let wins = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 4) { lane in
                if lane == 0 {
                    if response.cancel() { wins.add(1, ordering: .relaxed) }
                } else if lane == 1 {
                    if resolver.succeed(lane) { wins.add(1, ordering: .relaxed) }
                } else {
                    response.onResult { _ in }
                }
            }
            #expect(wins.load(ordering: .relaxed) == 1)
            #expect(response.isDone)
        }
    }

    @Test func manyRegistrantsOnManyThreads_eachRunOnce() {
        let (response, resolver) = Response<Int>.pending(on: .queue(DispatchQueue(label: "delivery")))
        let calls = Atomic<Int>(0)
        let allDelivered = DispatchSemaphore(value: 0)
        let registrants = 2_000
        DispatchQueue.concurrentPerform(iterations: registrants + 1) { index in
            if index == registrants / 2 {
                resolver.succeed(1)
            } else {
                response.onCompletion { _ in
                    if calls.add(1, ordering: .relaxed).newValue == registrants { allDelivered.signal() }
                }
            }
        }
        #expect(allDelivered.wait(timeout: .now() + 30) == .success)
        #expect(calls.load(ordering: .relaxed) == registrants)
    }

    // MARK: - executors

    @Test func immediate_runsInline_onTheResolvingThread() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let seen = Recorder<Int>()
        response.onCompletion { seen.record($0) }
        resolver.succeed(1)
        #expect(seen.values == [1])  // before `succeed` returned: inline
    }

    @Test func queue_runsCallbacksOnThatQueue() throws {
        let queue = DispatchQueue(label: "delivery")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 99)
        let (response, resolver) = Response<Int>.pending(on: .queue(queue))
        let delivered = Response<Int?>.pending(on: .immediate)
        response.onCompletion { _ in delivered.resolver.succeed(DispatchQueue.getSpecific(key: key)) }

        resolver.succeed(1)

        #expect(try delivered.response.value == 99)
    }

    @Test func main_runsCallbacksOnTheMainQueue() throws {
        let (response, resolver) = Response<Int>.pending()
        let delivered = Response<Bool>.pending(on: .immediate)
        response.onCompletion { _ in
            dispatchPrecondition(condition: .onQueue(.main))
            delivered.resolver.succeed(true)
        }
        DispatchQueue.global().async { resolver.succeed(1) }
        #expect(try delivered.response.value)
    }

    @Test func custom_receivesEveryDelivery() {
        final class CountingExecutor: CallbackExecutor {
            let count = Atomic<Int>(0)
            func execute(_ job: @escaping @Sendable () -> Void) {
                count.add(1, ordering: .relaxed)
                job()
            }
        }
        let executor = CountingExecutor()
        let (response, resolver) = Response<Int>.pending(on: .custom(executor))
        response.onCompletion { _ in }.onResult { _ in }
        resolver.succeed(1)
        #expect(executor.count.load(ordering: .relaxed) == 2)
    }

    // MARK: - isolation

    @MainActor
    final class Presenter {
        var title = "loading"
        var failures = 0

        func present(_ response: Response<String>) {
            response.mainActor
                .onCompletion { name in self.title = "Hello, \(name)" }
                .onFailure { _ in self.failures += 1 }
        }
    }

    @MainActor
    @Test func mainActorPresenter_updatesItsStateFromCallbacks() {
        let manual = ManualExecutor()
        let (response, resolver) = Response<String>.pending(on: manual.executor)
        let presenter = Presenter()
        presenter.present(response)

        resolver.succeed("Ada")
        #expect(presenter.title == "loading")

        manual.runAll()
        #expect(presenter.title == "Hello, Ada")
        #expect(presenter.failures == 0)
    }

    @Test func mainActorCallback_hopsToTheMainQueue_fromAnotherExecutor() async throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let delivered = Response<Bool>.pending(on: .immediate)
        await MainActor.run {
            _ = response.mainActor.onCompletion { _ in
                MainActor.assertIsolated()
                delivered.resolver.succeed(true)
            }
        }
        DispatchQueue.global().async { resolver.succeed(1) }
        try await withCheckedThrowingContinuation { continuation in
            delivered.response.onResult { continuation.resume(with: $0.map { _ in () }) }
        }
    }

    actor Counter {
        var total = 0
        func observe(_ response: Response<Int>, then done: Resolver<Int>) {
            response.onCompletion(isolatedTo: self) { counter, value in
                counter.total += value
                done.succeed(counter.total)
            }
        }
    }

    @Test func actorCallback_runsIsolatedToItsActor() async throws {
        let counter = Counter()
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let done = Response<Int>.pending(on: .immediate)
        await counter.observe(response, then: done.resolver)
        resolver.succeed(5)
        let total = try await withCheckedThrowingContinuation { continuation in
            done.response.onResult { continuation.resume(with: $0) }
        }
        #expect(total == 5)
        #expect(await counter.total == 5)
    }
}

/// Registration order when registering races with completing.
struct ResponseCallbackOrderTests {
    @Test func callbackRegisteredByACallback_runsAfterTheOnesRegisteredBefore() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let order = Recorder<String>()
        response.onCompletion { _ in
            order.record("A")
            response.onCompletion { _ in order.record("C") }
        }
        response.onCompletion { _ in order.record("B") }
        resolver.succeed(1)
        #expect(order.values == ["A", "B", "C"])
    }

    @Test func registeringWhileResolving_keepsRegistrationOrder_onASerialQueue() throws {
        for _ in 0..<1_000 {
            let queue = DispatchQueue(label: "delivery")
            let (response, resolver) = Response<Int>.pending(on: .queue(queue))
            let order = Recorder<Int>()
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    for index in 0..<20 { response.onCompletion { _ in order.record(index) } }
                } else {
                    resolver.succeed(1)
                }
            }
            queue.sync {}  // every registration has returned, so every delivery is enqueued
            #expect(order.values == Array(0..<20))
        }
    }

    @MainActor @Test(arguments: [false, true])
    func mainQueueAndMainActorCallbacks_runInRegistrationOrder(alreadyDone: Bool) async throws {
        // swift-nio runs a future's callbacks in the order they were added; so do ours on `.main`,
        // whether a callback is `@Sendable` or main-actor isolated.
        for _ in 0..<100 {
            let order = Recorder<Int>()
            let (response, resolver) = Response<Int>.pending()
            if alreadyDone { resolver.succeed(1) }
            response.onCompletion { _ in order.record(1) }
            response.mainActor.onCompletion { _ in order.record(2) }
            response.onResult { _ in order.record(3) }
            response.mainActor.onResult { _ in order.record(4) }
            response.onCompletion(on: .main) { _ in order.record(5) }
            let (delivered, deliver) = Response<Void>.pending(on: .immediate)
            response.mainActor.onCompletion { _ in deliver.succeed() }
            if !alreadyDone { DispatchQueue.global().async { resolver.succeed(1) } }
            try await delivered.get()
            #expect(order.values == [1, 2, 3, 4, 5])
        }
    }

    @Test func registeringWhileResolving_keepsRegistrationOrder_inline() {
        for _ in 0..<1_000 {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let order = Recorder<Int>()
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    for index in 0..<20 { response.onCompletion { _ in order.record(index) } }
                } else {
                    resolver.succeed(1)
                }
            }
            #expect(order.values == Array(0..<20))
        }
    }
}
