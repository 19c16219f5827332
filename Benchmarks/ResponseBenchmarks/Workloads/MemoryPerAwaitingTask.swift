import Dispatch
import ResponseKit
import Synchronization

/// M3: what a task suspended in `try await response.get()` on a pending response costs in
/// memory, the response included, beside a task suspended in a bare `withUnsafeContinuation`
/// whose hand-written future (``IntPromise``) will resume it. An async caller that awaits many
/// interactors at once pays this per request.
///
/// Holds the tasks all suspended at once and asks malloc how many bytes it handed out (as M2
/// does): the task itself (its first slab of frames, allocated with it) is on both sides, so the
/// difference is what awaiting a response adds. No target: reported beside its floor.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum MemoryPerAwaitingTask {
    static var workloads: [Workload] {
        guard MallocHeap.bytesInUse() != nil else { return [] }
        return [
            Workload(
                id: "M3",
                title: "malloc'd bytes per task suspended in get()",
                unit: .bytesPerTask,
                operations: 10_000,
                smokeOperations: 100,
                repetitions: 5,
                warmsUp: false,
                target: nil,
                responseKit: Variant(name: "Task awaiting response.get()", role: .responseKit) { count in
                    measure(count, in: "M3 ResponseKit", make: makeAwaitingResponse)
                },
                floor: Variant(name: "Task awaiting IntPromise + withUnsafeContinuation", role: .floor) { count in
                    measure(count, in: "M3 floor", make: makeAwaitingPromise)
                }
            )
        ]
    }

    /// A task suspended in `get()` on a pending response, and how to resolve it.
    @inline(never)
    private static func makeAwaitingResponse(_ index: Int, _ progress: Progress) -> @Sendable () -> Void {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        Task.detached {
            progress.aboutToSuspend()
            do {
                progress.resumed(with: try await response.get())
            } catch {
                preconditionFailure("M3 ResponseKit: the response failed: \(error)")
            }
        }
        return { resolver.succeed(index) }
    }

    /// A task suspended in a bare continuation that a hand-written future resumes.
    @inline(never)
    private static func makeAwaitingPromise(_ index: Int, _ progress: Progress) -> @Sendable () -> Void {
        let (promise, resolver) = IntResolver.pending()
        Task.detached {
            progress.aboutToSuspend()
            progress.resumed(
                with: await withUnsafeContinuation { continuation in
                    promise.observe { continuation.resume(returning: $0) }
                })
        }
        return { resolver.resolve(index) }
    }

    private static func measure(
        _ count: Int,
        in variant: String,
        make: (Int, Progress) -> @Sendable () -> Void
    ) -> Double {
        let progress = Progress(expecting: count)
        var resolveAll: [(@Sendable () -> Void)?] = Array(repeating: nil, count: count)
        MallocHeap.releaseFreedMemory()
        guard let before = MallocHeap.bytesInUse() else { preconditionFailure("\(variant): no malloc reading") }
        for index in 0..<count {
            resolveAll[index] = make(index, progress)
        }
        progress.waitUntilAllSuspended()
        guard let after = MallocHeap.bytesInUse() else { preconditionFailure("\(variant): no malloc reading") }
        for index in 0..<count {
            resolveAll[index]!()
            resolveAll[index] = nil
        }
        progress.waitUntilAllResumed(in: variant)
        MallocHeap.releaseFreedMemory()
        // The resolvers' closures are counted on both sides: one context each, equal.
        return Double(after - before) / Double(count)
    }

    /// Counts the tasks: how many are about to suspend, and the answers they got.
    private final class Progress: Sendable {
        private let expected: Int
        private let suspending = Atomic(0)
        private let answers = Mutex((count: 0, total: 0))
        private let allSuspending = DispatchSemaphore(value: 0)
        private let allResumed = DispatchSemaphore(value: 0)

        init(expecting expected: Int) {
            self.expected = expected
        }

        func aboutToSuspend() {
            if suspending.add(1, ordering: .relaxed).newValue == expected { allSuspending.signal() }
        }

        func resumed(with answer: Int) {
            let done = answers.withLock { answers in
                answers.count += 1
                answers.total &+= answer
                return answers.count == expected
            }
            if done { allResumed.signal() }
        }

        /// Returns once every task has reached its `await` and the cooperative pool has gone
        /// round: a task counts itself just before it suspends, so a few may still be on their
        /// way when the count is reached; the pool's threads run each to its suspension before
        /// they take a probe task queued after them.
        func waitUntilAllSuspended() {
            precondition(allSuspending.wait(timeout: .now() + 120) == .success, "M3: the tasks never started")
            let probed = DispatchSemaphore(value: 0)
            for _ in 0..<64 {
                Task.detached { probed.signal() }
            }
            for _ in 0..<64 {
                precondition(probed.wait(timeout: .now() + 120) == .success, "M3: the probes never ran")
            }
        }

        func waitUntilAllResumed(in variant: String) {
            precondition(allResumed.wait(timeout: .now() + 120) == .success, "\(variant): the tasks never resumed")
            let (count, total) = answers.withLock { ($0.count, $0.total) }
            precondition(
                count == expected && total == Tally.sum(ofFirst: expected),
                "\(variant): wrong answers \(count) \(total)")
        }
    }
}
