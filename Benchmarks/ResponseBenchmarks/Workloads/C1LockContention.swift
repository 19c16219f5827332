import Foundation
import ResponseKit
import Synchronization

/// C1: many threads registering callbacks on one pending response at once, more threads than
/// cores: what a response's lock does when it is contended. Every thread registers once on each
/// of `operationsPerThread` responses, in the same order, so that they all contend for the same
/// response at a time, and each callback list stays as short as an app's (one entry per thread).
///
/// Not a ratio against a floor like W1–W7, and not part of the default run (`--contention`): the
/// figure that matters is the **processor time** per registration beside the wall time, because a
/// lock whose waiters spin or yield instead of sleeping burns the cores the holder needs. The
/// references park their waiters and do the same work per registration (one append under the lock;
/// the callback captures nothing, so that no registration allocates and the allocator's own locks
/// stay out of the figures): a `pthread_mutex_t` (what SwiftNIO's `NIOLock` holds) and
/// `Mutex` from Synchronization (on Linux a priority-inheritance futex, which hands the lock over
/// through the kernel under contention).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum C1LockContention {
    /// One variant's figures for one round.
    struct Round {
        let wallNanosecondsPerOperation: Double
        let cpuNanosecondsPerOperation: Double
        var operationsPerSecond: Double { 1e9 / wallNanosecondsPerOperation }
    }

    /// Runs every variant `rounds` times and prints the medians.
    static func run(threads: Int, operationsPerThread: Int, rounds: Int) {
        print("C1: \(threads) threads × \(operationsPerThread) registrations on one response, \(rounds) rounds,")
        print("    \(ProcessInfo.processInfo.activeProcessorCount) cores; medians")
        print("| Variant | wall ns/op | CPU ns/op | CPU ÷ wall | registrations/s |")
        print("| --- | ---: | ---: | ---: | ---: |")
        let variants: [(String, (Int, Int) -> Round)] = [
            ("ResponseKit (.immediate)", responseKit),
            ("pthread_mutex_t + [closure]", pthreadFloor),
            ("Mutex<[closure]>", mutexFloor),
        ]
        for (name, variant) in variants {
            let results = (0..<rounds).map { _ in variant(threads, operationsPerThread) }
            let typical = Round(
                wallNanosecondsPerOperation: median(results.map(\.wallNanosecondsPerOperation)),
                cpuNanosecondsPerOperation: median(results.map(\.cpuNanosecondsPerOperation))
            )
            let wall = typical.wallNanosecondsPerOperation
            let cpu = typical.cpuNanosecondsPerOperation
            print(
                "| \(name) | \(format(wall)) | \(format(cpu)) | \(format(cpu / wall, digits: 2)) | "
                    + "\(format(typical.operationsPerSecond, digits: 0)) |"
            )
        }
    }

    /// What every callback adds to: a global, so that the callbacks capture nothing.
    static let delivered = Atomic<Int>(0)

    /// Checks that every registration's callback ran once, then starts the count again.
    static func expectDelivered(_ count: Int, in variant: String) {
        let seen = delivered.exchange(0, ordering: .relaxed)
        precondition(seen == count, "C1 \(variant): expected \(count) callbacks, got \(seen)")
    }

    @inline(never)
    static func makeResponse() -> (Response<Int>, Resolver<Int>) {
        Response<Int>.pending(on: .immediate)
    }

    static func responseKit(threads: Int, operationsPerThread: Int) -> Round {
        let pairs = (0..<operationsPerThread).map { _ in makeResponse() }
        let responses = pairs.map(\.0)
        let round = contend(threads: threads, operationsPerThread: operationsPerThread) { index in
            responses[index].onCompletion { delivered.add($0, ordering: .relaxed) }
        }
        for (_, resolver) in pairs { resolver.succeed(1) }
        expectDelivered(threads * operationsPerThread, in: "ResponseKit")
        return round
    }

    static func mutexFloor(threads: Int, operationsPerThread: Int) -> Round {
        let lists = (0..<operationsPerThread).map { _ in MutexCallbacks() }
        let round = contend(threads: threads, operationsPerThread: operationsPerThread) { index in
            lists[index].callbacks.withLock { $0.append { delivered.add($0, ordering: .relaxed) } }
        }
        for list in lists {
            for callback in list.callbacks.withLock({ $0 }) { callback(1) }
        }
        expectDelivered(threads * operationsPerThread, in: "Mutex")
        return round
    }

    static func pthreadFloor(threads: Int, operationsPerThread: Int) -> Round {
        let lists = (0..<operationsPerThread).map { _ in PthreadLockedCallbacks() }
        let round = contend(threads: threads, operationsPerThread: operationsPerThread) { index in
            lists[index].append { delivered.add($0, ordering: .relaxed) }
        }
        for callbacks in lists { callbacks.callAll(with: 1) }
        expectDelivered(threads * operationsPerThread, in: "pthread")
        return round
    }

    /// Starts `threads` threads, lets them all run `operation` `operationsPerThread` times at once,
    /// and measures from the start signal to the last thread's end: wall time, and the process's
    /// processor time (every thread's).
    static func contend(threads: Int, operationsPerThread: Int, _ operation: @escaping @Sendable (Int) -> Void) -> Round
    {
        let ready = DispatchSemaphore(value: 0)
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            let thread = Thread {
                ready.signal()
                start.wait()
                for index in 0..<operationsPerThread { operation(index) }
                finished.leave()
            }
            thread.start()
        }
        for _ in 0..<threads { ready.wait() }
        let cpuBefore = processorNanoseconds()
        let wallBefore = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<threads { start.signal() }
        finished.wait()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallBefore)
        let cpu = Double(processorNanoseconds() - cpuBefore)
        let operations = Double(threads * operationsPerThread)
        return Round(wallNanosecondsPerOperation: wall / operations, cpuNanosecondsPerOperation: cpu / operations)
    }

    /// The processor time of every thread of the process so far.
    static func processorNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    static func format(_ value: Double, digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }
}

/// A callback list behind a `pthread_mutex_t`, as SwiftNIO's `NIOLock` keeps one.
///
/// Safety of `@unchecked Sendable`: `callbacks` is read and written only between
/// `pthread_mutex_lock` and `pthread_mutex_unlock` of `mutex`, which is allocated once, initialised
/// in `init`, destroyed in `deinit`, and never moved.
private final class PthreadLockedCallbacks: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var callbacks: [@Sendable (Int) -> Void] = []

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func append(_ callback: @escaping @Sendable (Int) -> Void) {
        pthread_mutex_lock(mutex)
        callbacks.append(callback)
        pthread_mutex_unlock(mutex)
    }

    func callAll(with value: Int) {
        pthread_mutex_lock(mutex)
        let all = callbacks
        callbacks = []
        pthread_mutex_unlock(mutex)
        for callback in all { callback(value) }
    }
}

/// A callback list behind a `Mutex`, in a class so that an array can hold many.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
private final class MutexCallbacks: Sendable {
    let callbacks = Mutex<[@Sendable (Int) -> Void]>([])
}
