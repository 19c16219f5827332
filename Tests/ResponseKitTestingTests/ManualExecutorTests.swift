import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

struct ManualExecutorTests {
    private final class Sentinel: Sendable {}

    @Test func execute_doesNotRunJobs() {
        let manual = ManualExecutor()
        let ran = Recorder<Int>()
        manual.execute { ran.record(1) }
        #expect(ran.values.isEmpty)
        #expect(manual.pendingCount == 1)
        manual.runAll()
    }

    @Test func runAll_runsJobsInSubmissionOrder() {
        let manual = ManualExecutor()
        let ran = Recorder<Int>()
        for index in 0..<5 { manual.execute { ran.record(index) } }
        #expect(manual.runAll() == 5)
        #expect(ran.values == [0, 1, 2, 3, 4])
        #expect(manual.pendingCount == 0)
    }

    @Test func runAll_alsoRunsJobsEnqueuedWhileRunning() {
        let manual = ManualExecutor()
        let ran = Recorder<String>()
        manual.execute {
            ran.record("outer")
            manual.execute { ran.record("inner") }
        }
        #expect(manual.runAll() == 2)
        #expect(ran.values == ["outer", "inner"])
    }

    @Test func runAll_runsJobsEnqueuedWhileRunning_afterThoseAlreadyQueued() {
        // EmbeddedEventLoop's testExecuteWillRunTasksAddedRecursively.
        let manual = ManualExecutor()
        let ran = Recorder<String>()
        manual.execute {
            ran.record("first")
            manual.execute { ran.record("added by first") }
        }
        manual.execute { ran.record("second") }

        #expect(manual.runAll() == 3)
        #expect(ran.values == ["first", "second", "added by first"])
    }

    @Test func jobsEnqueuedAfterRunAll_waitForTheNextRun() {
        // EmbeddedEventLoop's testTasksSubmittedAfterRunDontRun.
        let manual = ManualExecutor()
        let ran = Recorder<Int>()
        manual.execute { ran.record(1) }
        manual.runAll()
        manual.execute { ran.record(2) }

        #expect(ran.values == [1])
        #expect(manual.pendingCount == 1)
        #expect(manual.runAll() == 1)
        #expect(ran.values == [1, 2])
    }

    @Test func aJobThatRan_releasesWhatItCaptured_whileOthersWait() {
        // A job keeps its captures (a presenter, a response) only until it has run, as
        // EmbeddedEventLoop's tasks do, so a test can check that something was freed.
        let manual = ManualExecutor()
        weak var weakSentinel: Sentinel?
        do {
            let sentinel = Sentinel()
            weakSentinel = sentinel
            manual.execute { withExtendedLifetime(sentinel) {} }
        }
        manual.execute {}

        #expect(manual.runNext())
        #expect(weakSentinel == nil)
        #expect(manual.pendingCount == 1)
        manual.runAll()
    }

    @Test func aJobThatRan_whoseCaptureEnqueuesWhenFreed_doesNotDeadlock() {
        // A delivered callback can hold the last reference to a resolver; freeing it abandons a
        // response, whose failure is delivered on this same executor.
        let manual = ManualExecutor()
        let ran = Recorder<String>()
        Self.executeAJobThatEnqueuesWhenFreed(on: manual, recordingIn: ran)
        manual.execute { ran.record("second") }

        manual.runNext()
        manual.runNext()
        manual.runAll()
        #expect(ran.values == ["second", "enqueued when freed"])
    }

    @Test func runNext_runsOneJobAtATime() {
        let manual = ManualExecutor()
        let ran = Recorder<Int>()
        manual.execute { ran.record(1) }
        manual.execute { ran.record(2) }
        #expect(manual.runNext())
        #expect(ran.values == [1])
        #expect(manual.runNext())
        #expect(!manual.runNext())
        #expect(ran.values == [1, 2])
    }

    @Test func response_onManualExecutor_deliversOnlyWhenDrained() {
        let manual = ManualExecutor()
        let (response, resolver) = Response<String>.pending(on: manual.executor)
        let names = Recorder<String>()
        response.onCompletion { names.record($0) }

        resolver.succeed("Ada")
        #expect(response.isDone)
        #expect(names.values.isEmpty)

        #expect(manual.runAll() == 1)
        #expect(names.values == ["Ada"])
    }

    @Test func response_onManualExecutor_deliversFailures() {
        let manual = ManualExecutor()
        let (response, resolver) = Response<Int>.pending(on: .custom(manual))
        let failures = Recorder<String>()
        response.onFailure { failures.record("\(type(of: $0))") }
        response.cancel()
        #expect(failures.values.isEmpty)
        manual.runAll()
        #expect(failures.values == ["CancellationError"])
        #expect(!resolver.succeed(1))
    }

    @Test func pendingOnAManualExecutor_canBeWrittenDirectly() {
        let manual = ManualExecutor()
        let (response, resolver) = Response<Int>.pending(on: manual)
        let seen = Recorder<Int>()
        response.onCompletion { seen.record($0) }
        resolver.succeed(4)
        #expect(seen.values.isEmpty)
        manual.runAll()
        #expect(seen.values == [4])
        #expect(manual.pendingCount == 0)
    }

    @Test func submissionsFromManyThreads_areAllKept() {
        let manual = ManualExecutor()
        let ran = Recorder<Int>()
        DispatchQueue.concurrentPerform(iterations: 1_000) { index in
            manual.execute { ran.record(index) }
        }
        #expect(manual.pendingCount == 1_000)
        #expect(manual.runAll() == 1_000)
        #expect(Set(ran.values) == Set(0..<1_000))
    }

    // MARK: - discardPendingJobs()

    @Test func discardPendingJobs_dropsEveryJob_withoutRunningIt() {
        let manual = ManualExecutor()
        let ran = Recorder<Int>()
        manual.execute { ran.record(1) }
        manual.execute { ran.record(2) }

        #expect(manual.discardPendingJobs() == 2)
        #expect(manual.pendingCount == 0)
        #expect(manual.runAll() == 0)
        #expect(ran.values.isEmpty)
    }

    @Test func discardPendingJobs_alsoDropsJobsThatDroppingEnqueues() {
        // A dropped delivery can hold the last resolver of a response delivered here.
        let manual = ManualExecutor()
        let ran = Recorder<String>()
        Self.executeAJobThatEnqueuesWhenFreed(on: manual, recordingIn: ran)

        #expect(manual.discardPendingJobs() == 2)
        #expect(manual.pendingCount == 0)
        #expect(ran.values.isEmpty)
    }

    // MARK: - helpers

    /// Queues a job whose capture, when freed, queues another that records "enqueued when freed".
    private static func executeAJobThatEnqueuesWhenFreed(on manual: ManualExecutor, recordingIn ran: Recorder<String>) {
        let onFree = OnDeinit { manual.execute { ran.record("enqueued when freed") } }
        manual.execute { withExtendedLifetime(onFree) {} }
    }
}

struct RecorderTests {
    @Test func record_keepsOrderAndCount() {
        let recorder = Recorder<String>()
        recorder.record("a")
        recorder.record("b")
        #expect(recorder.values == ["a", "b"])
        #expect(recorder.count == 2)
    }

    @Test func record_fromManyThreads_losesNothing() {
        let recorder = Recorder<Int>()
        DispatchQueue.concurrentPerform(iterations: 1_000) { recorder.record($0) }
        #expect(recorder.values.sorted() == Array(0..<1_000))
    }
}
