import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// Behaviours swift-clocks' `TestClock` and swift-nio's `EmbeddedEventLoop` pin for their virtual
/// time, checked on ``ManualScheduler``.
struct ManualSchedulerTests {
    private final class Sentinel: Sendable {}

    // MARK: - advance(by:)

    @Test func schedule_doesNotRunTheJob_untilTimeReachesItsDeadline() {
        // EmbeddedEventLoop's testCanControlTime.
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        _ = scheduler.schedule(after: .nanoseconds(5)) { ran.record(1) }

        #expect(scheduler.advance(by: .nanoseconds(4)) == 0)
        #expect(ran.values.isEmpty)
        #expect(scheduler.advance(by: .nanoseconds(1)) == 1)
        #expect(ran.values == [1])
        scheduler.advance(by: .nanoseconds(1))
        scheduler.advance(by: .seconds(3_600))
        #expect(ran.values == [1])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func advance_runsDueJobs_inDeadlineOrder_notSchedulingOrder() {
        // EmbeddedEventLoop's testScheduledTasksInOrder, TestClock's run sorting.
        let scheduler = ManualScheduler()
        let ran = Recorder<String>()
        _ = scheduler.schedule(after: .seconds(2)) { ran.record("2 s") }
        _ = scheduler.schedule(after: .milliseconds(1)) { ran.record("1 ms") }
        _ = scheduler.schedule(after: .seconds(1)) { ran.record("1 s") }

        #expect(scheduler.advance(by: .seconds(2)) == 3)
        #expect(ran.values == ["1 ms", "1 s", "2 s"])
    }

    @Test func jobsDueAtTheSameInstant_runInSchedulingOrder() {
        // EmbeddedEventLoop's testScheduledTasksInOrder: two tasks at 1 s keep their order.
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        for index in 0..<10 { _ = scheduler.schedule(after: .seconds(1)) { ran.record(index) } }

        scheduler.advance(by: .seconds(1))
        #expect(ran.values == Array(0..<10))
    }

    @Test func advancingStepByStep_runsEachJobAtItsOwnStep() {
        // EmbeddedEventLoop's testCanScheduleMultipleTasks.
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        for index in 1...10 { _ = scheduler.schedule(after: .nanoseconds(index)) { ran.record(index) } }

        for step in 1...10 {
            #expect(scheduler.advance(by: .nanoseconds(1)) == 1)
            #expect(ran.values == Array(1...step))
        }
    }

    @Test func aJob_readsItsOwnDeadlineAsNow_andTheClockEndsAtTheTarget() {
        // TestClock's testNow; EmbeddedEventLoop's testDrainScheduledTasks checks `now` inside each task.
        let scheduler = ManualScheduler()
        let seen = Recorder<Duration>()
        _ = scheduler.schedule(after: .seconds(3)) { seen.record(scheduler.now) }
        _ = scheduler.schedule(after: .seconds(1)) { seen.record(scheduler.now) }

        scheduler.advance(by: .seconds(5))
        #expect(seen.values == [.seconds(1), .seconds(3)])
        #expect(scheduler.now == .seconds(5))
    }

    @Test func advance_byANegativeInterval_neverMovesTimeBackwards() {
        // TestClock's `advance cannot move time backwards`; EmbeddedEventLoop's
        // testWeCantTimeTravelByAdvancingTimeToThePast (ours has no advance(to:), only by:).
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        _ = scheduler.schedule(after: .seconds(42)) { ran.record(1) }

        scheduler.advance(by: .seconds(40))
        #expect(scheduler.now == .seconds(40))
        #expect(scheduler.advance(by: .seconds(-40)) == 0)
        #expect(scheduler.now == .seconds(40))
        #expect(ran.values.isEmpty)
        scheduler.advance(by: .seconds(2))
        #expect(ran.values == [1])
    }

    @Test func advancingOverTwentyThousandPendingJobs_runsThemAllInDeadlineOrder() {
        // TestClock's `many sleeps`, all pending at once rather than in a chain. How fast is not
        // checked here (timings belong in benchmarks): the sorted list made this 0.4 s in a debug
        // build, where the search it replaced took about 50 s.
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        for index in 0..<20_000 {
            _ = scheduler.schedule(after: .milliseconds(20_000 - index)) { ran.record(index) }
        }

        #expect(scheduler.advance(by: .seconds(20)) == 20_000)
        #expect(ran.values == Array((0..<20_000).reversed()))
    }

    // MARK: - jobs that schedule jobs

    @Test func jobsScheduledByAJob_runInTheSameAdvance_whenDueWithinIt() {
        // EmbeddedEventLoop's testScheduledTasksFromScheduledTasksProperlySchedule; TestClock's
        // reentrant units of work: each deadline counts from the job that scheduled it.
        let scheduler = ManualScheduler()
        let ran = Recorder<String>()
        _ = scheduler.schedule(after: .nanoseconds(5)) {
            ran.record("outer")
            _ = scheduler.schedule(after: .nanoseconds(3)) { ran.record("3 later") }
            _ = scheduler.schedule(after: .nanoseconds(5)) { ran.record("5 later") }
        }

        scheduler.advance(by: .nanoseconds(4))
        #expect(ran.values.isEmpty)
        scheduler.advance(by: .nanoseconds(1))
        #expect(ran.values == ["outer"])
        scheduler.advance(by: .nanoseconds(2))
        #expect(ran.values == ["outer"])
        scheduler.advance(by: .nanoseconds(1))
        #expect(ran.values == ["outer", "3 later"])
        scheduler.advance(by: .nanoseconds(1))
        #expect(ran.values == ["outer", "3 later"])
        scheduler.advance(by: .nanoseconds(1))
        #expect(ran.values == ["outer", "3 later", "5 later"])
    }

    @Test func aChainOfJobs_eachSchedulingTheNext_allRunInOneAdvance() {
        // TestClock's `many sleeps`: 100,000 one-second sleeps in a row, one advance.
        let scheduler = ManualScheduler()
        let count = Recorder<Duration>()
        @Sendable func tick(_ remaining: Int) {
            guard remaining > 0 else { return }
            _ = scheduler.schedule(after: .seconds(1)) {
                count.record(scheduler.now)
                tick(remaining - 1)
            }
        }
        tick(10_000)

        #expect(scheduler.advance(by: .seconds(10_000)) == 10_000)
        #expect(count.count == 10_000)
        #expect(count.values.last == .seconds(10_000))
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aJobScheduledByAJob_forTheSameInstant_runsAfterTheJobsAlreadyDueThen() {
        // EmbeddedEventLoop's testTaskOrdering: tasks that expire now all run before the work
        // they add for now.
        let scheduler = ManualScheduler()
        let ran = Recorder<String>()
        _ = scheduler.schedule(after: .seconds(1)) {
            ran.record("first")
            _ = scheduler.schedule(after: .zero) { ran.record("added by first") }
        }
        _ = scheduler.schedule(after: .seconds(1)) { ran.record("second") }

        #expect(scheduler.advance(by: .seconds(1)) == 3)
        #expect(ran.values == ["first", "second", "added by first"])
    }

    @Test func aJobDueNow_waitsForRunDue_andRunDueDoesNotMoveTheClock() {
        // TestClock's `sleep for 0 seconds and advance()`.
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        scheduler.advance(by: .seconds(7))
        _ = scheduler.schedule(after: .zero) { ran.record(1) }
        _ = scheduler.schedule(after: .seconds(-3)) { ran.record(2) }
        #expect(ran.values.isEmpty)

        #expect(scheduler.runDue() == 2)
        #expect(ran.values == [1, 2])
        #expect(scheduler.now == .seconds(7))
    }

    @Test func aJobThatAdvancesTheClockItself_neverSeesTimeGoBackwards() {
        let scheduler = ManualScheduler()
        let seen = Recorder<String>()
        _ = scheduler.schedule(after: .seconds(1)) {
            seen.record("outer at \(scheduler.now)")
            scheduler.advance(by: .seconds(5))
            seen.record("outer after its advance at \(scheduler.now)")
        }
        _ = scheduler.schedule(after: .seconds(3)) { seen.record("inner at \(scheduler.now)") }

        scheduler.advance(by: .seconds(2))
        #expect(
            seen.values == [
                "outer at \(Duration.seconds(1))", "inner at \(Duration.seconds(3))",
                "outer after its advance at \(Duration.seconds(6))",
            ]
        )
        #expect(scheduler.now == .seconds(6))
    }

    @Test func aResponseDelayedOnTheScheduler_stillWaitsForItsExecutor() throws {
        // EmbeddedEventLoop's testExecutedTasksFromScheduledOnesAreRun: here the scheduler and
        // the executor are two doubles, each run by hand.
        let scheduler = ManualScheduler()
        let manual = ManualExecutor()
        let seen = Recorder<Int>()
        Response.succeeded(1, on: manual.executor).delay(by: .seconds(1), scheduler: scheduler)
            .onCompletion { seen.record($0) }
        manual.runAll()

        scheduler.advance(by: .seconds(1))
        #expect(seen.values.isEmpty)
        manual.runAll()
        #expect(seen.values == [1])
        #expect(manual.pendingCount == 0)
    }

    // MARK: - cancellation

    @Test func aCancelledJob_neverRuns() {
        // TestClock's `cancellation removes sleep`.
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        let job = scheduler.schedule(after: .seconds(1)) { ran.record(1) }
        job.cancel()

        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.advance(by: .seconds(1)) == 0)
        #expect(ran.values.isEmpty)
    }

    @Test func aJobCancelledByAnEarlierJob_inTheSameAdvance_neverRuns() {
        // EmbeddedEventLoop's testCancellingScheduledTasks.
        let scheduler = ManualScheduler()
        let ran = Recorder<String>()
        let late = scheduler.schedule(after: .nanoseconds(10)) { ran.record("cancelled job") }
        _ = scheduler.schedule(after: .nanoseconds(5)) { late.cancel() }

        #expect(scheduler.advance(by: .nanoseconds(20)) == 1)
        #expect(ran.values.isEmpty)
    }

    @Test func ofTwoJobsDueTogether_theFirstCanCancelTheSecond() {
        // EmbeddedEventLoop's testTaskOrdering: partners due at the same instant cancel each other.
        let scheduler = ManualScheduler()
        let ran = Recorder<String>()
        let partner = Recorder<ScheduledJob>()
        _ = scheduler.schedule(after: .seconds(1)) {
            ran.record("first")
            for job in partner.values { job.cancel() }
        }
        partner.record(scheduler.schedule(after: .seconds(1)) { ran.record("second") })

        #expect(scheduler.advance(by: .seconds(1)) == 1)
        #expect(ran.values == ["first"])
    }

    @Test func cancelling_afterTheJobRan_changesNothing() {
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        let job = scheduler.schedule(after: .seconds(1)) { ran.record(1) }
        let other = scheduler.schedule(after: .seconds(2)) { ran.record(2) }
        scheduler.advance(by: .seconds(1))
        job.cancel()
        job.cancel()

        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(ran.values == [1, 2])
        other.cancel()
    }

    @Test func aCancelledJob_releasesWhatItCaptured_beforeItsDeadline() {
        // EmbeddedEventLoop's testCancelledScheduledTasksDoNotHoldOnToRunClosure.
        let scheduler = ManualScheduler()
        weak var weakSentinel: Sentinel?
        let job: ScheduledJob = {
            let sentinel = Sentinel()
            weakSentinel = sentinel
            return scheduler.schedule(after: .seconds(3_600)) { withExtendedLifetime(sentinel) {} }
        }()
        #expect(weakSentinel != nil)

        job.cancel()
        #expect(weakSentinel == nil)
    }

    @Test func aJobThatRan_releasesWhatItCaptured() {
        let scheduler = ManualScheduler()
        weak var weakSentinel: Sentinel?
        do {
            let sentinel = Sentinel()
            weakSentinel = sentinel
            _ = scheduler.schedule(after: .seconds(1)) { withExtendedLifetime(sentinel) {} }
        }
        _ = scheduler.schedule(after: .seconds(5)) {}

        scheduler.advance(by: .seconds(1))
        #expect(weakSentinel == nil)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(4))
    }

    @Test func aCancelledJob_whoseCaptureSchedulesWhenFreed_doesNotDeadlock() {
        // A cancelled timer's job can hold the last reference to a response whose end touches
        // the same scheduler (another timer cancelled or started).
        let scheduler = ManualScheduler()
        let job: ScheduledJob = {
            let onFree = OnDeinit { _ = scheduler.schedule(after: .seconds(1)) {} }
            return scheduler.schedule(after: .seconds(1)) { withExtendedLifetime(onFree) {} }
        }()

        job.cancel()
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.advance(by: .seconds(1)) == 1)
    }

    @Test func cancellingAFakesAnswer_thatHeldTheLastResolver_endsATimeoutOnTheSameScheduler() {
        // A fake backend answers on the scheduler; cancelling its answer frees the resolver,
        // which fails the work as abandoned, and the timeout stops its own timer.
        let scheduler = ManualScheduler()
        var answer: ScheduledJob?
        let limited: Response<Int> = {
            let (work, resolver) = Response<Int>.pending(on: .immediate)
            answer = scheduler.schedule(after: .seconds(1)) { resolver.succeed(1) }
            return work.timeout(after: .seconds(5), scheduler: scheduler)
        }()
        #expect(scheduler.pendingCount == 2)

        answer?.cancel()
        #expect(limited.error as? ResponseError == .abandoned)
        #expect(scheduler.pendingCount == 0)
    }

    // MARK: - discardPendingJobs()

    @Test func discardPendingJobs_dropsEveryJob_withoutRunningIt_andLeavesTheClock() {
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        _ = scheduler.schedule(after: .seconds(1)) { ran.record(1) }
        _ = scheduler.schedule(after: .seconds(2)) { ran.record(2) }
        scheduler.advance(by: .milliseconds(500))

        #expect(scheduler.discardPendingJobs() == 2)
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.now == .milliseconds(500))
        #expect(scheduler.advance(by: .seconds(5)) == 0)
        #expect(ran.values.isEmpty)
    }

    @Test func discardPendingJobs_alsoDropsJobsThatDroppingSchedules() {
        // A dropped timer can hold the last resolver of work whose end starts another timer.
        let scheduler = ManualScheduler()
        do {
            let onFree = OnDeinit { _ = scheduler.schedule(after: .seconds(1)) {} }
            _ = scheduler.schedule(after: .seconds(1)) { withExtendedLifetime(onFree) {} }
        }

        #expect(scheduler.discardPendingJobs() == 2)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancellingADiscardedJob_doesNothing() {
        let scheduler = ManualScheduler()
        let job = scheduler.schedule(after: .seconds(1)) {}
        scheduler.discardPendingJobs()
        _ = scheduler.schedule(after: .seconds(1)) {}

        job.cancel()
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.advance(by: .seconds(1)) == 1)
    }

    // MARK: - threads

    @Test func schedulingFromManyThreads_losesNoJob() {
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        DispatchQueue.concurrentPerform(iterations: 1_000) { index in
            _ = scheduler.schedule(after: .milliseconds(index % 7)) { ran.record(index) }
        }

        #expect(scheduler.pendingCount == 1_000)
        #expect(scheduler.advance(by: .milliseconds(6)) == 1_000)
        #expect(Set(ran.values) == Set(0..<1_000))
    }

    @Test func twoThreadsAdvancing_runEachJobExactlyOnce() {
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        for index in 0..<2_000 { _ = scheduler.schedule(after: .milliseconds(index % 10)) { ran.record(index) } }

        DispatchQueue.concurrentPerform(iterations: 2) { _ in scheduler.advance(by: .milliseconds(10)) }
        #expect(ran.values.sorted() == Array(0..<2_000))
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancellingWhileAnotherThreadAdvances_runsEachJobAtMostOnce_andLeavesNoneBehind() {
        let scheduler = ManualScheduler()
        let ran = Recorder<Int>()
        let jobs = (0..<2_000).map { index in
            scheduler.schedule(after: .milliseconds(index % 10)) { ran.record(index) }
        }

        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            if lane == 0 { scheduler.advance(by: .milliseconds(10)) } else { for job in jobs { job.cancel() } }
        }
        #expect(Set(ran.values).count == ran.count)
        #expect(scheduler.pendingCount == 0)
    }
}
