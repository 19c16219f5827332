// ResponseStress: exactly-once under races, counted in release, in the millions.
//
// Each scenario races threads over batches of responses (one thread resolves, others observe,
// register, cancel, wait) and then checks every response: one outcome, every callback exactly
// once, in registration order. A failed check prints what broke and exits 1.
//
//     swift run -c release ResponseStress                 # every scenario, >= 1,000,000 raced operations each
//     swift run -c release ResponseStress --scale 0.01    # a quick run

import Dispatch
import Foundation
import ResponseKit

/// Prints a line at once, even when standard output is a pipe.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs `bodies` at once, each on its own thread, and waits for all. Each body is released (with
/// everything it captured) before its thread says it is done, so when `race` returns nothing of
/// the round is held by a thread that has not exited yet.
func race(_ bodies: [@Sendable () -> Void]) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for body in bodies {
        done.enter()
        let slot = BodySlot(body)
        let thread = Thread {
            start.wait()
            slot.runOnce()
            done.leave()
        }
        thread.start()
    }
    for _ in bodies { start.signal() }
    done.wait()
}

/// A body that runs once and is then let go, so that its captures die with the call.
final class BodySlot: @unchecked Sendable {
    // Safety: `body` is read and written only while `lock` is held.
    private var body: (@Sendable () -> Void)?
    private let lock = NSLock()
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    func runOnce() {
        lock.lock()
        let taken = body
        body = nil
        lock.unlock()
        taken?()
    }
}

/// Counts events per response slot.
final class Counts: @unchecked Sendable {
    // Safety: `counts` is read and written only while `lock` is held.
    private var counts: [Int]
    private let lock = NSLock()
    init(_ count: Int) { counts = Array(repeating: 0, count: count) }
    func add(_ index: Int, _ amount: Int = 1) {
        lock.lock()
        counts[index] += amount
        lock.unlock()
    }
    subscript(_ index: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[index]
    }
}

/// An ordered record per slot, for order checks.
final class Orders: @unchecked Sendable {
    // Safety: each slot's array is guarded by the lock of that slot.
    private var values: [[Int]]
    private let locks: [NSLock]
    init(_ count: Int) {
        values = Array(repeating: [], count: count)
        locks = (0..<count).map { _ in NSLock() }
    }
    func append(_ value: Int, at index: Int) {
        locks[index].lock()
        values[index].append(value)
        locks[index].unlock()
    }
    func values(at index: Int) -> [Int] {
        locks[index].lock()
        defer { locks[index].unlock() }
        return values[index]
    }
}

/// Counts what is in flight per slot, and the most there ever was.
final class Gauges: @unchecked Sendable {
    // Safety: `running` and `most` are read and written only while `lock` is held.
    private var running: [Int]
    private var most: [Int]
    private let lock = NSLock()
    init(_ count: Int) {
        running = Array(repeating: 0, count: count)
        most = running
    }
    func up(_ index: Int) {
        lock.lock()
        running[index] += 1
        most[index] = max(most[index], running[index])
        lock.unlock()
    }
    func down(_ index: Int) {
        lock.lock()
        running[index] -= 1
        lock.unlock()
    }
    func most(_ index: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return most[index]
    }
}

struct StressError: Error {}

/// An object that counts how many of its kind are alive, so a scenario can prove each value a
/// response stored was released exactly once: never leaked, never freed twice.
final class Tracked: Sendable {
    static let alive = Counts(1)
    let id: Int
    init(_ id: Int) {
        self.id = id
        Tracked.alive.add(0)
    }
    deinit { Tracked.alive.add(0, -1) }
}

/// Too large for a response's inline value words: stored boxed.
struct LargeValue: Sendable {
    let a: Int
    let b: Int
    let object: Tracked
}

let failureCount = Counts(1)
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        failureCount.add(0)
        if failureCount[0] <= 20 { report("FAILED: \(message())") }
    }
}

/// Checks that exactly one of the resolution and the cancellation of response `index` won, and
/// that its one callback ran once.
func checkOneWinner(_ index: Int, resolvedWins: Counts, cancelWins: Counts, delivered: Counts) {
    check(
        resolvedWins[index] + cancelWins[index] == 1,
        "response \(index): \(resolvedWins[index]) resolutions and \(cancelWins[index]) cancellations won")
    check(delivered[index] == 1, "response \(index): its callback ran \(delivered[index]) times")
}

struct Scenario {
    let name: String
    /// Runs one round over `batch` responses; returns the raced operations it counted.
    let round: (_ batch: Int) -> Int
}

let scale = CommandLine.arguments.firstIndex(of: "--scale").map { Double(CommandLine.arguments[$0 + 1])! } ?? 1
let target = Int(1_000_000 * scale)
let batch = 2_000

let scenarios: [Scenario] = [
    Scenario(name: "resolve / observe / cancel") { batch in
        let pairs = (0..<batch).map { _ in Response<Int>.pending(on: .immediate) }
        let delivered = Counts(batch)
        let resolvedWins = Counts(batch)
        let cancelWins = Counts(batch)
        race([
            { for (index, pair) in pairs.enumerated() where pair.resolver.succeed(index) { resolvedWins.add(index) } },
            { for (index, pair) in pairs.enumerated() { pair.response.onResult { _ in delivered.add(index) } } },
            { for (index, pair) in pairs.enumerated() where pair.response.cancel() { cancelWins.add(index) } },
        ])
        for index in 0..<batch {
            checkOneWinner(index, resolvedWins: resolvedWins, cancelWins: cancelWins, delivered: delivered)
            check(
                pairs[index].response.isCancelled == (cancelWins[index] == 1),
                "response \(index): isCancelled disagrees with who won")
        }
        return batch * 3
    },
    Scenario(name: "registration during delivery, in order") { batch in
        let pairs = (0..<batch).map { _ in Response<Int>.pending(on: .immediate) }
        let orders = Orders(batch)
        race([
            { for (index, pair) in pairs.enumerated() { pair.resolver.succeed(index) } },
            {
                for (index, pair) in pairs.enumerated() {
                    for step in 0..<4 { pair.response.onCompletion { _ in orders.append(step, at: index) } }
                }
            },
        ])
        for index in 0..<batch {
            check(
                orders.values(at: index) == [0, 1, 2, 3],
                "response \(index): callbacks ran as \(orders.values(at: index))")
        }
        return batch * 5
    },
    Scenario(name: "combinators with concurrent resolution and cancellation") { batch in
        let inputs = (0..<batch).map { _ in (0..<4).map { _ in Response<Int>.pending(on: .immediate) } }
        let combined = inputs.map { group in Response.all(group.map(\.response), on: .immediate) }
        let outcomes = Counts(batch)
        race([
            { for group in inputs { for (index, pair) in group.enumerated() { pair.resolver.succeed(index) } } },
            { for (index, response) in combined.enumerated() { response.onResult { _ in outcomes.add(index) } } },
            { for (index, response) in combined.enumerated() where index % 2 == 0 { response.cancel() } },
        ])
        for index in 0..<batch {
            check(outcomes[index] == 1, "all #\(index): its callback ran \(outcomes[index]) times")
            let result = combined[index].result
            if case .success(let values) = result { check(values == [0, 1, 2, 3], "all #\(index): \(values)") }
            if combined[index].isCancelled {
                for pair in inputs[index] {
                    check(pair.response.isDone, "all #\(index): an input of a cancelled all is still pending")
                }
            }
        }
        return batch * 6
    },
    Scenario(name: "allSettled and all(maxInFlight:) with concurrent resolution and cancellation") { batch in
        let width = 4
        let settledInputs = (0..<batch).map { _ in (0..<width).map { _ in Response<Int>.pending(on: .immediate) } }
        let fanOutInputs = (0..<batch).map { _ in (0..<width).map { _ in Response<Int>.pending(on: .immediate) } }
        for index in stride(from: 0, to: batch, by: 7) {
            // The one that fails, observed here: the fan-out may stop before it starts it.
            fanOutInputs[index][3].response.onFailure { _ in }
        }
        let settled = settledInputs.map { group in Response.allSettled(group.map(\.response), on: .immediate) }
        let inFlight = Gauges(batch)
        let started = Counts(batch * width)
        let fannedOut = (0..<batch).map { index in
            Response.all(0..<width, maxInFlight: 2, on: .immediate) { element in
                let input = fanOutInputs[index][element].response
                started.add(index * width + element)
                inFlight.up(index)
                input.onResult { _ in inFlight.down(index) }  // before the fan-out hears of it
                return input
            }
        }
        let outcomes = Counts(batch * 2)
        race([
            {
                for index in 0..<batch {
                    for element in 0..<width {
                        if (index + element) % 5 == 0 {
                            settledInputs[index][element].resolver.fail(StressError())
                        } else {
                            settledInputs[index][element].resolver.succeed(element)
                        }
                        if index % 7 == 0 && element == 3 {
                            fanOutInputs[index][element].resolver.fail(StressError())
                        } else {
                            fanOutInputs[index][element].resolver.succeed(element)
                        }
                    }
                }
            },
            {
                for index in 0..<batch {
                    settled[index].onResult { _ in outcomes.add(index) }
                    fannedOut[index].onResult { _ in outcomes.add(batch + index) }
                }
            },
            {
                for index in 0..<batch {
                    if index % 2 == 0 { settled[index].cancel() }
                    if index % 3 == 0 { fannedOut[index].cancel() }
                }
            },
        ])
        for index in 0..<batch {
            check(outcomes[index] == 1, "allSettled #\(index): its callback ran \(outcomes[index]) times")
            switch settled[index].result {
            case .success(let results):
                check(results.count == width, "allSettled #\(index): \(results.count) outcomes")
                for (element, result) in results.enumerated() {
                    switch result {
                    case .success(let value): check(value == element, "allSettled #\(index): \(value) at \(element)")
                    case .failure(let error):
                        check(
                            error is StressError || error is CancellationError,
                            "allSettled #\(index): \(error) at \(element)")
                    }
                }
            case .failure(let error):
                check(error is CancellationError, "allSettled #\(index) failed with \(error)")
                for pair in settledInputs[index] {
                    check(pair.response.isDone, "allSettled #\(index): an input of a cancelled one is still pending")
                }
            }
            check(
                outcomes[batch + index] == 1,
                "all(maxInFlight:) #\(index): its callback ran \(outcomes[batch + index]) times")
            check(inFlight.most(index) <= 2, "all(maxInFlight:) #\(index): \(inFlight.most(index)) in flight at once")
            switch fannedOut[index].result {
            case .success(let values): check(values == [0, 1, 2, 3], "all(maxInFlight:) #\(index): \(values)")
            case .failure(let error):
                check(
                    error is StressError || error is CancellationError,
                    "all(maxInFlight:) #\(index) failed with \(error)")
                for element in 0..<width where started[index * width + element] == 1 {
                    check(
                        fanOutInputs[index][element].response.isDone,
                        "all(maxInFlight:) #\(index): a started input of a failed one is still pending")
                }
            }
        }
        return batch * (width * 2 + 2) + batch / 2 + batch / 3
    },
    Scenario(name: "values that own memory (an object inline, a large struct boxed): resolve, cancel, read") { batch in
        let objects = (0..<batch).map { _ in Response<Tracked>.pending(on: .immediate) }
        let larges = (0..<batch).map { _ in Response<LargeValue>.pending(on: .immediate) }
        let seen = Counts(batch)
        let mismatches = Counts(1)
        race([
            {
                for (index, pair) in objects.enumerated() { pair.resolver.succeed(Tracked(index)) }
                for (index, pair) in larges.enumerated() {
                    pair.resolver.succeed(LargeValue(a: index, b: -index, object: Tracked(index)))
                }
            },
            {
                for (index, pair) in objects.enumerated() where index % 2 == 0 { pair.response.cancel() }
                for (index, pair) in larges.enumerated() where index % 2 == 1 { pair.response.cancel() }
            },
            {
                for (index, pair) in objects.enumerated() {
                    pair.response.onCompletion { object in if object.id != index { mismatches.add(0) } }
                    if let object = try? pair.response.value, object.id == index { seen.add(index) }
                }
                for (index, pair) in larges.enumerated() {
                    if let value = try? pair.response.value {
                        if value.a != index || value.b != -index || value.object.id != index { mismatches.add(0) }
                    }
                }
            },
        ])
        for index in 0..<batch {
            check(objects[index].response.isDone && larges[index].response.isDone, "response \(index) not done")
            let object = try? objects[index].response.value
            check((object != nil) == (seen[index] == 1), "object response \(index): reads disagree")
        }
        check(mismatches[0] == 0, "\(mismatches[0]) values came back changed")
        return batch * 6
    },
    Scenario(name: "a consumer's derived response cancelled while others observe and the work resolves") { batch in
        // The presenter's callback holds a claim: cancelling the map, whenever it lands, must
        // never cancel the shared response, and every callback, early or late, runs once.
        let pairs = (0..<batch).map { _ in Response<Int>.pending(on: .immediate) }
        let presented = Counts(batch)
        let late = Counts(batch)
        let mapped = pairs.enumerated().map { index, pair -> Response<Int> in
            pair.response.onResult { result in if case .success(index) = result { presented.add(index) } }
            return pair.response.map { $0 + 1 }
        }
        race([
            { for (index, pair) in pairs.enumerated() { pair.resolver.succeed(index) } },
            { for response in mapped { response.cancel() } },
            { for (index, pair) in pairs.enumerated() { pair.response.onCompletion { _ in late.add(index) } } },
        ])
        for index in 0..<batch {
            check(!pairs[index].response.isCancelled, "response \(index): cancelled through another consumer's map")
            check(presented[index] == 1, "response \(index): the presenter saw its value \(presented[index]) times")
            check(late[index] == 1, "response \(index): a late callback ran \(late[index]) times")
            switch mapped[index].result {
            case .success(let value): check(value == index + 1, "map \(index): \(value)")
            case .failure(let error): check(error is CancellationError, "map \(index): \(error)")
            }
        }
        return batch * 3
    },
    Scenario(name: "chains cancelled mid-flight") { batch in
        let heads = (0..<batch).map { _ in Response<Int>.pending(on: .immediate) }
        let tails = heads.map { head -> Response<Int> in
            var chain = head.response
            for _ in 0..<10 { chain = chain.map { $0 + 1 } }
            return chain
        }
        let outcomes = Counts(batch)
        for (index, tail) in tails.enumerated() { tail.onResult { _ in outcomes.add(index) } }
        race([
            { for (index, head) in heads.enumerated() { head.resolver.succeed(index) } },
            { for tail in tails { tail.cancel() } },
        ])
        for index in 0..<batch {
            check(outcomes[index] == 1, "chain \(index): its end's callback ran \(outcomes[index]) times")
            switch tails[index].result {
            case .success(let value): check(value == index + 10, "chain \(index): \(value)")
            case .failure(let error):
                check(error is CancellationError, "chain \(index): \(error)")
                check(heads[index].response.isDone, "chain \(index): cancelled, yet its head is pending")
            }
        }
        return batch * 2
    },
    Scenario(name: "waits and awaits racing resolution") { batch in
        let pairs = (0..<batch).map { _ in Response<Int>.pending(on: .immediate) }
        let seen = Counts(batch)
        let awaited = DispatchGroup()
        for (index, pair) in pairs.enumerated() where index % 8 == 0 {
            awaited.enter()
            Task.detached {  // not the main actor of top-level code: the main thread blocks below
                if (try? await pair.response.get()) == index { seen.add(index) }
                awaited.leave()
            }
        }
        race([
            { for (index, pair) in pairs.enumerated() { pair.resolver.succeed(index) } },
            {
                for (index, pair) in pairs.enumerated() {
                    if (try? pair.response.wait(timeout: .zero)) == index { seen.add(index, 100) }
                }
            },
            {
                for (index, pair) in pairs.enumerated() where (try? pair.response.value) == index {
                    seen.add(index, 10_000)
                }
            },
        ])
        awaited.wait()
        for index in 0..<batch {
            let count = seen[index]
            check(count / 10_000 == 1, "response \(index): a blocking read saw \(count / 10_000) values")
            check(
                (count % 10_000) / 100 <= 1,
                "response \(index): a zero-timeout wait saw \((count % 10_000) / 100) values")
            check(count % 100 == (index % 8 == 0 ? 1 : 0), "response \(index): an await saw \(count % 100) values")
        }
        return batch * 3 + batch / 8
    },
    Scenario(name: "main-queue responses' cancellation handlers: run once, or released after delivery") { batch in
        // `.main` responses whose cancellation handler holds a `Tracked`: the cancellation that
        // wins runs it once, on its own thread; a resolution that wins releases it on the main
        // queue, behind the delivery. The main queue is this thread, and the blocking reads below
        // run what the race queued there; the harness then checks every `Tracked` is gone.
        let pairs = (0..<batch).map { _ in Response<Int>.pending() }
        let handlerRuns = Counts(batch)
        let delivered = Counts(batch)
        let resolvedWins = Counts(batch)
        let cancelWins = Counts(batch)
        for (index, pair) in pairs.enumerated() {
            let held = Tracked(index)
            pair.resolver.onCancel {
                _ = held
                handlerRuns.add(index)
            }
            pair.response.onResult { _ in delivered.add(index) }
        }
        race([
            { for (index, pair) in pairs.enumerated() where pair.resolver.succeed(index) { resolvedWins.add(index) } },
            {
                for (index, pair) in pairs.enumerated().reversed() where pair.response.cancel() {
                    cancelWins.add(index)
                }
            },
        ])
        for pair in pairs { _ = pair.response.result }  // on the main thread: runs the queued jobs
        for index in 0..<batch {
            checkOneWinner(index, resolvedWins: resolvedWins, cancelWins: cancelWins, delivered: delivered)
            check(
                handlerRuns[index] == cancelWins[index],
                "response \(index): its cancellation handler ran \(handlerRuns[index]) times, cancelled \(cancelWins[index])"
            )
        }
        return batch * 2
    },
    Scenario(name: "awaiting tasks cancelled racing resolution") { batch in
        // Each task ends exactly once, with the value or with CancellationError, whichever of the
        // resolution and its cancellation took its entry off the response first; a lost resume
        // would leave the group waiting (reported below), a second one would end a task twice.
        let pairs = (0..<batch).map { _ in Response<Int>.pending(on: .immediate) }
        let seen = Counts(batch)
        let ended = DispatchGroup()
        let tasks = pairs.enumerated().map { index, pair in
            ended.enter()
            return Task.detached {
                do {
                    if try await pair.response.get() == index { seen.add(index) }
                } catch is CancellationError {
                    seen.add(index, 100)
                } catch {
                    seen.add(index, 10_000)
                }
                ended.leave()
            }
        }
        race([
            { for (index, pair) in pairs.enumerated() { pair.resolver.succeed(index) } },
            { for task in tasks.reversed() { task.cancel() } },
        ])
        guard ended.wait(timeout: .now() + 60) == .success else {
            check(false, "awaiting tasks never ended: a resume was lost")
            return batch * 2
        }
        for index in 0..<batch {
            let count = seen[index]
            check(count == 1 || count == 100, "task \(index): ended with \(count) (1 value, 100 cancellation)")
        }
        return batch * 2
    },
]

for scenario in scenarios {
    let clock = ContinuousClock()
    var operations = 0
    var rounds = 0
    let elapsed = clock.measure {
        while operations < target {
            operations += scenario.round(batch)
            rounds += 1
            // Every value a round's responses stored is gone with them: released once, none leaked.
            check(Tracked.alive[0] == 0, "\(Tracked.alive[0]) tracked values outlived their responses")
        }
    }
    report(
        "\(scenario.name): \(operations) raced operations in \(rounds) rounds, \(elapsed); failures so far: \(failureCount[0])"
    )
}

let failures = failureCount[0]
report(failures == 0 ? "\(scenarios.count) passed, 0 failed" : "0 passed, \(failures) failed")
exit(failures == 0 ? 0 : 1)
