import Dispatch
import Testing

@testable import ResponseKit

/// A deadline too far for Dispatch means "never", never "at once": Dispatch reads a time at or
/// past 2⁶³ nanoseconds as a wall-clock time long gone, so a timer set that far fired at once.
struct DispatchTimeSaturatingTests {
    @Test(arguments: [UInt64(Int64.max), UInt64(Int64.max) + 1, 1 << 63 | 12_345, .max])
    func aTimeAtOrPast2To63Nanoseconds_isNever(nanoseconds: UInt64) {
        #expect(DispatchTime.saturating(uptimeNanoseconds: nanoseconds) == .distantFuture)
    }

    @Test func aNearerTime_isKept() {
        let soon = DispatchTime.now().uptimeNanoseconds + 1_000_000
        #expect(DispatchTime.saturating(uptimeNanoseconds: soon) == DispatchTime(uptimeNanoseconds: soon))
    }

    @Test func aSchedulersDelayThatEndsPast2To63Nanoseconds_isNever() {
        // Just short of 2⁶³ nanoseconds itself, so that only the sum with the uptime passes it (a
        // longer delay overflows on its own, which was already taken as "never").
        #expect(DispatchScheduler.deadline(after: .nanoseconds(Int64.max - 1_000)) == .distantFuture)
    }
}
