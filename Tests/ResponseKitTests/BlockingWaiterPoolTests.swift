import Dispatch
import Foundation
import ResponseKitTesting
import Testing

@testable import ResponseKit

/// Blocking reads reuse their waiters: a recycled waiter may hear a wake-up meant for its last
/// wait, and the next wait must still end only when its own response is done or its time is up.
struct BlockingWaiterPoolTests {
    /// A waiter from the pool that has heard one wake-up too many, as a recycled waiter can.
    static func waiterWithALateWakeUp() -> BlockingWaiter {
        let waiter = BlockingWaiterPool.take()
        waiter.wake()
        return waiter
    }

    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: - late wake-ups

    @Test func aTimedWait_whoseWaiterHeardALateWakeUp_stillWaitsUntilItsDeadline() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let waiter = Self.waiterWithALateWakeUp()
        defer {
            BlockingWaiterPool.recycle(waiter)
            resolver.succeed(0)
        }
        #expect(response.addWaiter(waiter))
        let deadline = Self.now + 20_000_000
        let wait = BlockingWait(
            response: response, waiter: waiter, place: .elsewhere, deadline: deadline, inTask: false)

        #expect(wait.run() == .timedOut)
        #expect(Self.now >= deadline)
        #expect(response.removeWaiter(waiter))
    }

    /// Whether the late wake-up is taken before or after the resolution depends on timing here;
    /// the reads in a row below meet both orders thousands of times.
    @Test func anUntimedWait_whoseWaiterHeardALateWakeUp_endsDoneWithItsOwnResponse() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let waiter = Self.waiterWithALateWakeUp()
        defer { BlockingWaiterPool.recycle(waiter) }
        #expect(response.addWaiter(waiter))
        let blocking = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let endedDone = Recorder<Bool>()
        Thread {
            let wait = BlockingWait(response: response, waiter: waiter, place: .elsewhere, deadline: nil, inTask: false)
            blocking.signal()
            let outcome = wait.run()
            endedDone.record(outcome == .done && response.isDone)
            finished.signal()
        }.start()

        #expect(blocking.wait(timeout: .now() + 30) == .success)
        resolver.succeed(1)
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(endedDone.values == [true])
        #expect(try response.value == 1)
    }

    @Test func blockingReadsInARow_eachReturnTheirOwnValue_whateverTheirWaitersHeardBefore() async throws {
        // Some of these responses finish before their read sleeps, which leaves the recycled
        // waiter a late wake-up for the next read on this thread to take: each read must still
        // return its own value, never an earlier one or none.
        let total = try await onOwnThread { () -> Int in
            var total = 0
            for index in 0..<10_000 {
                let (response, resolver) = Response<Int>.pending(on: .immediate)
                DispatchQueue.global().async { resolver.succeed(index) }
                let value = try response.value
                if value != index { return -1 }
                total &+= value
            }
            return total
        }
        #expect(total == (0..<10_000).reduce(0, +))
    }

    // MARK: - the pool

    @Test func thePool_keepsNoMoreWaitersThanItsCapacity() {
        let waiters = (0..<(BlockingWaiterPool.capacity * 3)).map { _ in
            BlockingWaiter(wakesMainRunLoop: false, recordsWake: false)
        }
        for waiter in waiters { BlockingWaiterPool.recycle(waiter) }
        #expect(BlockingWaiterPool.keptCount <= BlockingWaiterPool.capacity)
    }
}
