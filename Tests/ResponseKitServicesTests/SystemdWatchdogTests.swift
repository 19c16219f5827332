import ResponseKit
import Testing

@testable import ResponseKitServices

#if canImport(Glibc)
import Glibc
#endif

/// When the watchdog is ours to feed, and that its pings come from the main queue.
/// ServiceRunnerSystemdProcessTests shows the pings stop while the main queue is blocked.
struct SystemdWatchdogTests {
    @Test func theIntervalIsWatchdogUsec_inMicroseconds() {
        #expect(SystemdWatchdog.interval(in: ["WATCHDOG_USEC": "500000"]) == .milliseconds(500))
    }

    @Test func theWatchdogIsOurs_whenWatchdogPidNamesThisProcess_orIsUnsetOrEmpty() {
        let own = ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "\(getpid())"]
        #expect(SystemdWatchdog.interval(in: own) == .seconds(2))
        #expect(SystemdWatchdog.interval(in: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": ""]) == .seconds(2))
    }

    @Test func theWatchdogIsNotOurs_whenWatchdogPidNamesAnotherProcess() {
        let parents = ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "\(getppid())"]
        #expect(SystemdWatchdog.interval(in: parents) == nil)
    }

    @Test(arguments: [[:], ["WATCHDOG_USEC": "0"], ["WATCHDOG_USEC": "-5"], ["WATCHDOG_USEC": "soon"]])
    func thereIsNoWatchdog_withoutAPositiveInterval(environment: [String: String]) {
        #expect(SystemdWatchdog.interval(in: environment) == nil)
    }

    @MainActor
    @Test func pingsRunOnTheMainQueue_periodAfterPeriod() async {
        let pings = LockedBox.make([Bool]())
        let (thirdPing, resolver) = Response<Void>.pending(on: .immediate)
        let watchdog = SystemdWatchdog(interval: .milliseconds(20)) {
            let count = pings.withLock { pings in
                pings.append(MainQueueProbe.isCurrent)
                return pings.count
            }
            if count == 3 { resolver.succeed() }
        }
        _ = await outcome(of: thirdPing)

        withExtendedLifetime(watchdog) {}  // released here: its timer is cancelled

        #expect(pings.withLock { $0.prefix(3) } == [true, true, true])
    }
}
