import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// Nothing outlives its use: every operator's graph, with everything its closures captured, is
/// freed once nobody references it, whether its inputs finished or were abandoned (their
/// resolvers released unresolved).
struct ResponseGraphMemoryTests {
    /// What a test built: weak references to every object it expects to be freed.
    final class Tracked: @unchecked Sendable {
        // Safety: used by one test on one thread; `@unchecked` only lets closures capture it.
        private var references: [() -> AnyObject?] = []

        func track(_ object: AnyObject) {
            references.append { [weak object] in object }
        }

        var alive: Int { references.filter { $0() != nil }.count }
    }

    enum Ending: CaseIterable {
        /// Every input finished, then everything was dropped.
        case finished
        /// Every input's resolver was dropped unresolved.
        case abandoned
    }

    /// Builds a graph from two pending inputs with `build`, ends the inputs as `ending` says,
    /// drops everything, and returns how many tracked objects are still alive.
    static func aliveAfter(
        _ ending: Ending,
        _ build: (Response<Int>, Response<Int>, Sentinel, Tracked) -> Void
    ) -> Int {
        let tracked = Tracked()
        do {
            let (first, firstResolver) = Response<Int>.pending(on: .immediate)
            let (second, secondResolver) = Response<Int>.pending(on: .immediate)
            let captured = Sentinel()
            tracked.track(first)
            tracked.track(second)
            tracked.track(captured)
            build(first, second, captured, tracked)
            if ending == .finished {
                firstResolver.succeed(1)
                secondResolver.succeed(2)
            }
        }
        return tracked.alive
    }

    /// Every operator, each as a graph over the two inputs whose closures capture the sentinel.
    static var graphs: [(String, (Response<Int>, Response<Int>, Sentinel, Tracked) -> Void)] {
        [
            (
                "map",
                { a, _, s, t in
                    t.track(
                        a.map {
                            _ = s
                            return $0
                        })
                }
            ),
            (
                "flatMap",
                { a, b, s, t in
                    t.track(
                        a.flatMap { _ in
                            _ = s
                            return b
                        })
                }
            ),
            (
                "recover",
                { a, _, s, t in
                    t.track(
                        a.recover { _ in
                            _ = s
                            return 0
                        })
                }
            ),
            (
                "flatMapError",
                { a, b, s, t in
                    t.track(
                        a.flatMapError { _ in
                            _ = s
                            return b
                        })
                }
            ),
            (
                "mapError",
                { a, _, s, t in
                    t.track(
                        a.mapError {
                            _ = s
                            return $0
                        })
                }
            ),
            ("intercept", { a, _, s, t in t.track(a.intercept { _ in _ = s }) }),
            ("always", { a, _, s, t in t.track(a.always { _ = s }) }),
            (
                "always, cancelled",
                { a, _, s, t in
                    let guarded = a.always { _ = s }
                    t.track(guarded)
                    guarded.cancel()
                }
            ),
            (
                "validate",
                { a, _, s, t in
                    t.track(
                        a.validate { _ in
                            _ = s
                            return true
                        })
                }
            ),
            ("all", { a, b, _, t in t.track(Response.all([a, b], on: .immediate)) }),
            ("zip", { a, b, _, t in t.track(Response<(Int, Int)>.zip(a, b, on: .immediate)) }),
            ("race", { a, b, _, t in t.track(Response.race([a, b], on: .immediate)) }),
            ("any", { a, b, _, t in t.track(Response.any([a, b], on: .immediate)) }),
            ("allSettled", { a, b, _, t in t.track(Response.allSettled([a, b], on: .immediate)) }),
            (
                "all, maxInFlight",
                { a, b, s, t in
                    t.track(
                        Response.all([a, b], maxInFlight: 1, on: .immediate) {
                            _ = s
                            return $0
                        })
                }
            ),
            (
                "wrap",
                { a, _, s, t in
                    t.track(
                        Response<Int>.wrap(on: .immediate) { handler in
                            a.onResult {
                                _ = s
                                handler($0)
                            }
                        })
                }
            ),
            ("timeout", { a, _, _, t in t.track(a.timeout(after: .seconds(3600))) }),
            ("callbacks", { a, _, s, _ in a.onCompletion { _ in _ = s }.onFailure { _ in _ = s } }),
            (
                "chain of 1,000",
                { a, _, s, t in
                    var chain = a.map {
                        _ = s
                        return $0
                    }
                    for _ in 0..<1_000 { chain = chain.map { $0 } }
                    t.track(chain)
                }
            ),
        ]
    }

    @Test(arguments: Ending.allCases)
    func everyOperatorsGraph_isFreed_onceDropped(ending: Ending) {
        for (name, build) in Self.graphs {
            let alive = Self.aliveAfter(ending, build)
            #expect(alive == 0, "\(name), \(ending): \(alive) objects still alive")
        }
    }

    @Test(arguments: Ending.allCases)
    func retry_isFreed_onceItsAttemptsAreDone(ending: Ending) {
        let scheduler = ManualScheduler()
        let tracked = Tracked()
        do {
            let (attempt, resolver) = Response<Int>.pending(on: .immediate)
            let captured = Sentinel()
            tracked.track(attempt)
            tracked.track(captured)
            tracked.track(
                Response<Int>.retry(attempts: 3, backoff: .fixed(.seconds(1)), scheduler: scheduler, on: .immediate) {
                    _ = captured
                    return attempt
                }
            )
            if ending == .finished { resolver.succeed(1) }
        }
        scheduler.advance(by: .seconds(1))  // the second attempt fails as the first did
        scheduler.advance(by: .seconds(1))  // and the third: the retry gives up
        #expect(tracked.alive == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test(arguments: Ending.allCases)
    func boundedFanOut_isFreed_withEveryResponseItMade(ending: Ending) {
        let tracked = Tracked()
        do {
            let resolvers = Recorder<Resolver<Int>>()
            let captured = Sentinel()
            tracked.track(captured)
            // Weakly: the work, not the factory, holds the resolvers, so dropping them abandons.
            let values = Response.all(0..<20, maxInFlight: 3, on: .immediate) { [weak resolvers] index in
                _ = captured
                let (response, resolver) = Response<Int>.pending(on: .immediate)
                tracked.track(response)
                resolvers?.record(resolver)
                return response
            }
            tracked.track(values)
            if ending == .finished {
                var next = 0
                while next < resolvers.count {
                    resolvers.values[next].succeed(next)
                    next += 1
                }
                #expect(values.isSuccessful)
            }
        }
        #expect(tracked.alive == 0)
    }

    @Test func delay_isFreed_onceItsTimerRan() {
        let scheduler = ManualScheduler()
        let tracked = Tracked()
        do {
            let (source, resolver) = Response<Int>.pending(on: .immediate)
            let captured = Sentinel()
            tracked.track(source)
            tracked.track(captured)
            tracked.track(source.delay(by: .seconds(1), scheduler: scheduler).always { _ = captured })
            _ = resolver
        }
        #expect(tracked.alive > 0, "an abandonment waits out the delay, like any failure")
        scheduler.advance(by: .seconds(1))
        #expect(tracked.alive == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aPendingChainOf100_000Steps_isFreed_whenItsSourceIsAbandoned() {
        weak var head: Response<Int>?
        weak var tail: Response<Int>?
        do {
            let (source, resolver) = Response<Int>.pending(on: .immediate)
            var chain = source
            for _ in 0..<100_000 { chain = chain.map { $0 &+ 1 } }
            head = source
            tail = chain
            _ = resolver
        }
        #expect(head == nil)
        #expect(tail == nil)
    }
}
