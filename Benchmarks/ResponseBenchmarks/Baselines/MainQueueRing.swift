import Dispatch
import Synchronization

/// ``MainQueueBatch`` with a lock-free ring in place of its locked list: answers from any thread
/// claim a slot with one compare-and-swap and publish it with one store; one `DispatchQueue.main`
/// job runs every answer that is ready. (A bounded multi-producer queue after Dmitry Vyukov's,
/// with one consumer.)
///
/// Used by W7's "answers in a lock-free ring" alternative, to measure what issue 36 suggested for
/// ResponseKit's main-queue jobs: whether the lock that workers and the main queue share is what
/// keeps W7 under `dispatchMain()` above the floor. Beside ``MainQueueBatch`` in the same run, the
/// difference is the lock's cost alone.
///
/// W7 never has more answers waiting than requests in flight (1,024 at most), so the ring never
/// fills; a full ring traps rather than wait, as a wrong benchmark should.
///
/// `@unchecked Sendable`, proved: the class is final and its stored properties are `let`s, except
/// `dequeuePosition`, which only the main actor touches (it is `@MainActor`). The two buffers are
/// shared through the slots' sequence numbers alone: a producer writes slot `p mod capacity` only
/// after its compare-and-swap moved `enqueuePosition` from `p` while the slot's sequence read `p`
/// (no other producer can claim `p`, and the consumer does not read a slot before its sequence
/// reads `p + 1`), and publishes it with a store of `p + 1` that the consumer's acquiring load
/// sees before it moves the answer out; the consumer hands the slot back with a releasing store
/// of `p + capacity`, which the next producer to claim it reads before writing.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class MainQueueRing: @unchecked Sendable {
    /// One ring for the process, as ResponseKit has one main queue of its own.
    static let shared = MainQueueRing()

    private static let capacity = 4096
    private static let mask = capacity - 1

    /// Per slot: `p` when free for the answer at position `p`, `p + 1` once that answer is in.
    private let sequences: UnsafeMutablePointer<Atomic<Int>>
    private let answers: UnsafeMutablePointer<MainQueueBatch.Answer>
    /// The next position a producer claims.
    private let enqueuePosition = Atomic<Int>(0)
    /// A main-queue job that runs the answers is on its way.
    private let drainScheduled = Atomic<Bool>(false)
    /// The next position the main queue runs.
    @MainActor private var dequeuePosition = 0

    private init() {
        sequences = .allocate(capacity: Self.capacity)
        for index in 0..<Self.capacity { (sequences + index).initialize(to: Atomic(index)) }
        answers = .allocate(capacity: Self.capacity)
    }

    /// Adds `answer`; the first answer since the last drain schedules one.
    func deliver(_ answer: MainQueueBatch.Answer) {
        var position = enqueuePosition.load(ordering: .relaxed)
        while true {
            let sequence = sequences[position & Self.mask].load(ordering: .acquiring)
            if sequence == position {
                let (claimed, current) = enqueuePosition.weakCompareExchange(
                    expected: position,
                    desired: position + 1,
                    ordering: .relaxed
                )
                if claimed { break }
                position = current
            } else {
                precondition(sequence > position, "MainQueueRing: full")
                position = enqueuePosition.load(ordering: .relaxed)  // another producer took it
            }
        }
        (answers + (position & Self.mask)).initialize(to: answer)
        // Sequentially consistent, with the flag's accesses: the drain clears the flag and then
        // looks at this slot, this publishes and then looks at the flag, so one of the two sees
        // the other and no answer is left without a drain.
        sequences[position & Self.mask].store(position + 1, ordering: .sequentiallyConsistent)
        if !drainScheduled.load(ordering: .sequentiallyConsistent),
            drainScheduled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        {
            DispatchQueue.main.async { MainActor.assumeIsolated { self.drain() } }
        }
    }

    /// Runs every answer that is ready, then those that arrived meanwhile, until none is left.
    @MainActor
    private func drain() {
        while true {
            while true {
                let slot = dequeuePosition & Self.mask
                guard sequences[slot].load(ordering: .acquiring) == dequeuePosition + 1 else { break }
                let answer = (answers + slot).move()
                sequences[slot].store(dequeuePosition + Self.capacity, ordering: .releasing)
                dequeuePosition += 1
                answer.receive(answer.value)
            }
            drainScheduled.store(false, ordering: .sequentiallyConsistent)
            // An answer published before the flag was cleared would otherwise wait for the next.
            let slot = dequeuePosition & Self.mask
            guard sequences[slot].load(ordering: .sequentiallyConsistent) == dequeuePosition + 1,
                drainScheduled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent)
                    .exchanged
            else { return }
        }
    }
}
