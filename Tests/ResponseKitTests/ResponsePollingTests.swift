import Dispatch
import Foundation
import ResponseKitTesting
import Testing

@testable import ResponseKit

/// Polling a response with `wait(timeout:)` leaves nothing behind, a zero timeout only looks, and
/// thousands of threads may wait on one response at once.
struct ResponsePollingTests {
    @Test func aTimedOutWait_removesItsWaiter() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        for _ in 0..<20 {
            #expect(throws: ResponseError.timedOut) { try response.wait(timeout: .milliseconds(1)) }
        }
        #expect(response.waitingCallbackCount == 0)
        resolver.succeed(1)
    }

    @Test func aZeroTimeout_onlyLooks_andRegistersNothing() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        for _ in 0..<100_000 {
            #expect(throws: ResponseError.timedOut) { try response.wait(timeout: .zero) }
        }
        #expect(response.waitingCallbackCount == 0)
        resolver.succeed(4)
        #expect(try response.wait(timeout: .zero) == 4)
        #expect(try response.wait(timeout: .seconds(-1)) == 4)
    }

    @Test func aTimedOutWait_thatLosesARaceWithTheResult_returnsTheResult() async throws {
        try await onOwnThread { try Self.raceWaitsWithResults() }
    }

    static func raceWaitsWithResults() throws {
        for _ in 0..<200 {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            DispatchQueue.global().async { resolver.succeed(8) }
            do {
                #expect(try response.wait(timeout: .microseconds(50)) == 8)
            } catch let error as ResponseError {
                #expect(error == .timedOut)
            }
            #expect(try response.value == 8)
        }
    }

    @Test func twoThousandThreads_blockedOnOneResponse_allWake() async throws {
        try await onOwnThread { try Self.twoThousandWaiters() }
    }

    static func twoThousandWaiters() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let woken = Recorder<Int>()
        let allBlocked = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let threads = (0..<2_000).map { _ in
            Thread {
                allBlocked.signal()
                woken.record((try? response.value) ?? -1)
                finished.signal()
            }
        }
        for thread in threads {
            thread.stackSize = 64 * 1024
            thread.start()
        }
        for _ in threads { allBlocked.wait() }
        resolver.succeed(3)
        for _ in threads {
            // The timeout only matters when a waiter never wakes.
            #expect(finished.wait(timeout: .now() + 60) == .success)
        }
        #expect(woken.values.allSatisfy { $0 == 3 })
        #expect(response.waitingCallbackCount == 0)
    }

    @Test func threadsPollingOneResponseWithShortTimeouts_eachGetTheValue_andLeaveNoWaiter() async throws {
        try await onOwnThread { try Self.pollFromManyThreads() }
    }

    static func pollFromManyThreads() throws {
        for _ in 0..<20 {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let values = Recorder<Int>()
            let timeouts = Recorder<Int>()
            let finished = DispatchSemaphore(value: 0)
            for _ in 0..<8 {
                Thread {
                    while true {
                        do {
                            values.record(try response.wait(timeout: .microseconds(200)))
                            break
                        } catch {
                            timeouts.record(1)
                        }
                    }
                    finished.signal()
                }.start()
            }
            resolver.succeed(6)
            for _ in 0..<8 {
                // The timeout only matters when a poller never sees the value.
                #expect(finished.wait(timeout: .now() + 60) == .success)
            }
            #expect(values.values == Array(repeating: 6, count: 8))
            #expect(response.waitingCallbackCount == 0)
        }
    }

    @Test func aTimeoutTooLongForTheClock_waitsForTheValue_insteadOfGivingUpAtOnce() async throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let waiting = Task { try await onOwnThread { try response.wait(timeout: .seconds(Int64.max)) } }
        await yieldUntil { response.waitingCallbackCount == 1 }
        resolver.succeed(9)
        #expect(try await resultWithinLimit(of: waiting)?.get() == 9)
    }

    // MARK: - In a task

    @Test func aBlockingWaitInATaskThatIsCancelled_endsWithCancellationError_andRemovesItsWaiter() async {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        let task = Task.detached { try response.wait(timeout: .seconds(600)) }
        await yieldUntil { response.waitingCallbackCount == 1 }
        task.cancel()
        let result = await resultWithinLimit(of: task)
        #expect(throws: CancellationError.self) { try result?.get() }  // not timedOut: the wait ended early
        #expect(response.waitingCallbackCount == 0)
        #expect(!response.isDone)  // only the wait ended
        resolver.succeed(1)
    }

    @Test func blockingWaitsInTasksCancelledOverAndOver_leaveNothingBehind() async {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        for _ in 0..<20 {
            let task = Task.detached { try response.value }
            task.cancel()
            _ = await resultWithinLimit(of: task)
        }
        #expect(response.waitingCallbackCount == 0)
        resolver.succeed(2)
    }
}
