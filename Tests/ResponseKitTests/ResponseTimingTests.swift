import Dispatch
import ResponseKit
import ResponseKitTesting
import SeededRandom
import Testing

struct ResponseTimingTests {
    // MARK: - timeout

    @Test func timeout_failsWithDeadlineExceeded_andCancelsTheWork() {
        let scheduler = ManualScheduler()
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let limited = work.timeout(after: .seconds(5), scheduler: scheduler)

        scheduler.advance(by: .seconds(4))
        #expect(!limited.isDone)

        scheduler.advance(by: .seconds(1))
        #expect(limited.error as? ResponseError == .deadlineExceeded)
        #expect(resolver.isCancelled)
    }

    @Test func timeout_failsWithDeadlineExceeded_whichIsNotTheWaitsTimedOut() {
        let scheduler = ManualScheduler()
        let (work, workResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(workResolver) {} }  // cancelled by the timeout, never resolved
        let limited = work.timeout(after: .seconds(1), scheduler: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(throws: ResponseError.deadlineExceeded) { try limited.wait(timeout: .zero) }
        #expect(limited.error as? ResponseError != .timedOut)
        #expect("\(ResponseError.deadlineExceeded)".contains("cancelled"))
    }

    @Test func timeout_passesAnEarlyResultOn_andStopsTheTimer() throws {
        let scheduler = ManualScheduler()
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let limited = work.timeout(after: .seconds(5), scheduler: scheduler)
        resolver.succeed(3)
        #expect(try limited.value == 3)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(10))
        #expect(try limited.value == 3)
    }

    @Test func timeout_passesAnEarlyFailureOn() {
        let scheduler = ManualScheduler()
        let limited = Response<Int>.failed(TestError(code: 4), on: .immediate)
            .timeout(after: .seconds(1), scheduler: scheduler)
        #expect(limited.error as? TestError == TestError(code: 4))
    }

    @Test func timeout_doesNotCancelWorkThatAnotherConsumerNeeds() {
        let scheduler = ManualScheduler()
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let impatient = work.timeout(after: .seconds(1), scheduler: scheduler)
        let patient = work.map { $0 }
        scheduler.advance(by: .seconds(1))
        #expect(impatient.error as? ResponseError == .deadlineExceeded)
        #expect(!resolver.isCancelled)
        #expect(!patient.isDone)
    }

    @Test func timeout_dueAtOnce_onASchedulerThatRunsItInline_cancelsTheWork() {
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let limited = work.timeout(after: .zero, scheduler: InlineScheduler())
        #expect(limited.error as? ResponseError == .deadlineExceeded)
        #expect(resolver.isCancelled)
    }

    @Test func timeout_dueAtOnce_onASchedulerThatRunsItInline_doesNotCancelWorkThatAnotherConsumerNeeds() throws {
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let patient = work.map { $0 }
        let impatient = work.timeout(after: .zero, scheduler: InlineScheduler())
        #expect(impatient.error as? ResponseError == .deadlineExceeded)
        #expect(!resolver.isCancelled)
        #expect(!patient.isDone)
        resolver.succeed(1)
        #expect(try patient.value == 1)
    }

    @Test func timeout_aResultAfterTheDeadline_isRefusedQuietly() {
        startRecordingDiagnostics()
        let scheduler = ManualScheduler()
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let limited = work.timeout(after: .seconds(1), scheduler: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(!resolver.succeed(1))  // the work was cancelled: a normal race, not a second result
        #expect(limited.error as? ResponseError == .deadlineExceeded)
        #expect(diagnostics(forResponseCreatedAt: work.line).isEmpty)
    }

    @Test func timeout_aResultJustBeforeTheDeadline_wins() throws {
        let scheduler = ManualScheduler()
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let limited = work.timeout(after: .seconds(1), scheduler: scheduler)
        scheduler.advance(by: .milliseconds(999))
        resolver.succeed(1)
        scheduler.advance(by: .seconds(1))
        #expect(try limited.value == 1)
    }

    @Test func timeout_ofAResponseAlreadyDone_keepsItsResult_evenWithADeadlineDueAtOnce() throws {
        let limited = Response.succeeded(1, on: .immediate).timeout(after: .zero, scheduler: InlineScheduler())
        #expect(try limited.value == 1)
    }

    @Test func timeout_racingTheResult_deliversOneOutcome_andReportsNothing() throws {
        startRecordingDiagnostics()
        var lines: Set<UInt> = []
        var outcomes: Set<String> = []
        for _ in 0..<2_000 {
            let scheduler = ManualScheduler()
            let (work, resolver) = Response<Int>.pending(on: .immediate)
            // Each callback resolves this: a second delivery would be reported as resolving it twice.
            let (delivered, deliver) = Response<String>.pending(on: .immediate)
            lines.formUnion([work.line, delivered.line])
            work.timeout(after: .seconds(1), scheduler: scheduler)
                .onCompletion { deliver.succeed("value \($0)") }
                .onFailure { deliver.succeed("\($0)") }
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 { scheduler.advance(by: .seconds(1)) } else { resolver.succeed(1) }
            }
            outcomes.insert(try delivered.value)
        }
        #expect(outcomes.isSubset(of: ["value 1", "\(ResponseError.deadlineExceeded)"]))
        #expect(lines.flatMap { diagnostics(forResponseCreatedAt: $0) }.isEmpty)
    }

    @Test func timeout_withRealTime_firesWithoutHelp() {
        let (work, workResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(workResolver) {} }  // pending on purpose: never resolved, never abandoned
        let limited = work.timeout(after: .milliseconds(10))
        #expect(limited.error as? ResponseError == .deadlineExceeded)
    }

    @Test func timeout_longerThanDispatchCanCount_meansNever() {
        let (work, workResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(workResolver) {} }  // pending on purpose: never resolved, never abandoned
        let limited = work.timeout(after: .seconds(9_223_372_036) + .milliseconds(900))
        _ = try? limited.wait(timeout: .milliseconds(50))
        #expect(!limited.isDone)  // it used to wrap around and fire at once
        limited.cancel()
    }

    // MARK: - delay

    @Test func delay_holdsTheValue_forTheInterval() throws {
        let scheduler = ManualScheduler()
        let delayed = Response.succeeded(1, on: .immediate).delay(by: .seconds(2), scheduler: scheduler)
        #expect(!delayed.isDone)
        scheduler.advance(by: .seconds(1))
        #expect(!delayed.isDone)
        scheduler.advance(by: .seconds(1))
        #expect(try delayed.value == 1)
    }

    @Test func delays_inAChain_addUp() throws {
        // BrightFutures' testDelayChaining: each step waits from when the step before delivered.
        let scheduler = ManualScheduler()
        let seen = Recorder<Duration>()
        let end = Response.succeeded((), on: .immediate)
            .delay(by: .seconds(1), scheduler: scheduler).intercept { seen.record(scheduler.now) }
            .delay(by: .seconds(1), scheduler: scheduler).intercept { seen.record(scheduler.now) }
        scheduler.advance(by: .seconds(1))
        #expect(seen.values == [.seconds(1)])
        #expect(!end.isDone)
        scheduler.advance(by: .seconds(1))
        #expect(seen.values == [.seconds(1), .seconds(2)])
        #expect(end.isSuccessful)
    }

    @Test func delay_holdsFailuresToo() {
        let scheduler = ManualScheduler()
        let delayed = Response<Int>.failed(TestError(), on: .immediate).delay(by: .seconds(1), scheduler: scheduler)
        #expect(!delayed.isDone)
        scheduler.advance(by: .seconds(1))
        #expect(delayed.error is TestError)
    }

    @Test func delay_passesCancellationAtOnce() {
        let scheduler = ManualScheduler()
        let (work, workResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(workResolver) {} }  // pending on purpose: never resolved, never abandoned
        let delayed = work.delay(by: .seconds(1), scheduler: scheduler)
        work.cancel()
        #expect(delayed.error is CancellationError)
    }

    @Test func delay_cancelled_dropsItsTimer() {
        let scheduler = ManualScheduler()
        let delayed = Response.succeeded(1, on: .immediate).delay(by: .seconds(1), scheduler: scheduler)
        #expect(scheduler.pendingCount == 1)
        delayed.cancel()
        #expect(scheduler.pendingCount == 0)
    }
}

/// Runs a job that is due at once right away, inside `schedule` (which ``ResponseScheduler``
/// allows: "zero or less means as soon as possible"); any later job never runs.
struct InlineScheduler: ResponseScheduler {
    func schedule(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> ScheduledJob {
        if delay <= .zero { job() }
        return ScheduledJob {}
    }
}

struct ResponseRetryTests {
    /// A factory whose attempts fail until `successAt`, counting calls.
    final class FlakyService: Sendable {
        let calls = Recorder<Int>()
        let successAt: Int
        init(successAt: Int) { self.successAt = successAt }

        func attempt() -> Response<String> {
            calls.record(calls.count + 1)
            let number = calls.count
            return number >= successAt
                ? .succeeded("ok on \(number)", on: .immediate)
                : .failed(TestError(code: number), on: .immediate)
        }
    }

    @Test func retry_callsTheFactoryAgain_untilSuccess() throws {
        let service = FlakyService(successAt: 3)
        let response = Response<String>.retry(attempts: 5, on: .immediate) { service.attempt() }
        #expect(try response.value == "ok on 3")
        #expect(service.calls.count == 3)
    }

    @Test func retry_failsWithTheLastError_whenAttemptsRunOut() {
        let service = FlakyService(successAt: 10)
        let response = Response<String>.retry(attempts: 3, on: .immediate) { service.attempt() }
        #expect(response.error as? TestError == TestError(code: 3))
        #expect(service.calls.count == 3)
    }

    @Test func retry_waitsTheBackoffBetweenAttempts() throws {
        let scheduler = ManualScheduler()
        let service = FlakyService(successAt: 3)
        let response = Response<String>.retry(
            attempts: 3,
            backoff: .exponential(initial: .seconds(1), jitter: 0),
            scheduler: scheduler,
            on: .immediate
        ) { service.attempt() }

        #expect(service.calls.count == 1)
        scheduler.advance(by: .milliseconds(999))
        #expect(service.calls.count == 1)
        scheduler.advance(by: .milliseconds(1))
        #expect(service.calls.count == 2)  // after 1 s
        scheduler.advance(by: .milliseconds(1_999))
        #expect(service.calls.count == 2)
        scheduler.advance(by: .milliseconds(1))
        #expect(service.calls.count == 3)  // after 2 s more
        #expect(try response.value == "ok on 3")
    }

    @Test func retry_stopsAtOnce_onAnErrorItShouldNotRetry() {
        let service = FlakyService(successAt: 10)
        let response = Response<String>.retry(
            attempts: 5,
            on: .immediate,
            shouldRetry: { _ in false },
            { service.attempt() }
        )
        #expect(response.error is TestError)
        #expect(service.calls.count == 1)
    }

    @Test func retry_succeedingAtFirst_makesOneAttempt() throws {
        let service = FlakyService(successAt: 1)
        let response = Response<String>.retry(attempts: 5, on: .immediate) { service.attempt() }
        #expect(try response.value == "ok on 1")
        #expect(service.calls.count == 1)
    }

    @Test func retry_retriesWhatShouldRetryAccepts_andFailsWithTheFirstErrorItRefuses() {
        // google/promises' retry condition: code 42 is worth retrying, code 13 is final.
        let asked = Recorder<Int>()
        let calls = Recorder<Int>()
        let response = Response<Int>.retry(
            attempts: 5,
            on: .immediate,
            shouldRetry: { error in
                let code = (error as? TestError)?.code ?? 0
                asked.record(code)
                return code == 42
            },
            {
                calls.record(calls.count + 1)
                return .failed(TestError(code: calls.count < 3 ? 42 : 13), on: .immediate)
            }
        )
        #expect(response.error as? TestError == TestError(code: 13))
        #expect(calls.count == 3)
        #expect(asked.values == [42, 42, 13])
    }

    @Test func retry_neverAsksShouldRetry_aboutTheLastAttempt() {
        let asked = Recorder<Bool>()
        let service = FlakyService(successAt: 10)
        let response = Response<String>.retry(
            attempts: 3,
            on: .immediate,
            shouldRetry: { _ in
                asked.record(true)
                return true
            },
            { service.attempt() }
        )
        #expect(response.error as? TestError == TestError(code: 3))
        #expect(asked.count == 2)
    }

    @Test func retry_anAttemptCancelledElsewhere_isNotRetried() {
        let attempts = Recorder<(response: Response<Int>, resolver: Resolver<Int>)>()
        let response = Response<Int>.retry(attempts: 5, on: .immediate) {
            let attempt = Response<Int>.pending(on: .immediate)
            attempts.record(attempt)
            return attempt.response
        }
        attempts.values[0].response.cancel()
        #expect(response.error is CancellationError)
        #expect(attempts.count == 1)
    }

    @Test func retry_cancelled_cancelsTheAttemptAndMakesNoMore() {
        let scheduler = ManualScheduler()
        let attempts = Recorder<Resolver<Int>>()
        let response = Response<Int>.retry(attempts: 5, scheduler: scheduler, on: .immediate) {
            let (attempt, resolver) = Response<Int>.pending(on: .immediate)
            attempts.record(resolver)
            return attempt
        }
        attempts.values[0].fail(TestError())  // first attempt fails: a retry is due now
        response.cancel()
        scheduler.advance(by: .seconds(60))
        #expect(attempts.count == 1)
        #expect(response.error is CancellationError)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func retry_cancelledDuringAnAttempt_cancelsThatAttempt() {
        let attempts = Recorder<Resolver<Int>>()
        let response = Response<Int>.retry(attempts: 5, on: .immediate) {
            let (attempt, resolver) = Response<Int>.pending(on: .immediate)
            attempts.record(resolver)
            return attempt
        }
        response.cancel()
        #expect(attempts.values.first?.isCancelled == true)
    }

    @Test func retry_ofAttemptsThatFailAtOnce_withPausesRunAtOnce_keepsTheStackFlat() throws {
        let (outcome, resolver) = Response<Int>.pending(on: .immediate)
        DispatchQueue.global().async {  // a worker thread's smaller stack
            let calls = Recorder<Int>()
            let retried = Response<Int>.retry(attempts: 100_000, scheduler: InlineScheduler(), on: .immediate) {
                calls.record(calls.count + 1)
                return .failed(TestError(code: calls.count), on: .immediate)
            }
            resolver.resolve(with: Result { try retried.value })
        }
        #expect(throws: TestError(code: 100_000)) { try outcome.value }
    }

    @Test func retry_withZeroAttempts_stillMakesOne() throws {
        let service = FlakyService(successAt: 1)
        let response = Response<String>.retry(attempts: 0, on: .immediate) { service.attempt() }
        #expect(try response.value == "ok on 1")
    }
}

struct RetryBackoffTests {
    @Test func none_neverWaits() {
        #expect(RetryBackoff.none.delay(beforeAttempt: 2) == .zero)
    }

    @Test func fixed_waitsTheSameEveryTime() {
        let backoff = RetryBackoff.fixed(.milliseconds(200))
        #expect(backoff.delay(beforeAttempt: 1) == .zero)
        #expect(backoff.delay(beforeAttempt: 2) == .milliseconds(200))
        #expect(backoff.delay(beforeAttempt: 9) == .milliseconds(200))
    }

    @Test func exponential_doublesUpToTheMaximum() {
        let backoff = RetryBackoff.exponential(initial: .milliseconds(100), maximum: .seconds(1), jitter: 0)
        let delays = (2...7).map { backoff.delay(beforeAttempt: $0) }
        #expect(
            delays == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                .seconds(1),
            ])
    }

    @Test func exponential_survivesHugeAttemptNumbers() {
        let backoff = RetryBackoff.exponential(initial: .seconds(1), maximum: .seconds(30), jitter: 0)
        #expect(backoff.delay(beforeAttempt: 10_000) == .seconds(30))
    }

    @Test func exponential_jitterStaysWithinItsSpread() {
        let backoff = RetryBackoff.exponential(initial: .seconds(1), multiplier: 2, maximum: .seconds(100), jitter: 0.5)
        var generator = SeededGenerator(seed: 42)
        let delays = (0..<200).map { _ in backoff.delay(beforeAttempt: 3, using: &generator) }
        #expect(delays.allSatisfy { $0 >= .seconds(1) && $0 <= .seconds(3) })
        #expect(Set(delays).count > 100)  // really spread
    }

    @Test func exponential_fromZero_staysZero_evenForHugeAttemptNumbers() {
        #expect(RetryBackoff.exponential(initial: .zero).delay(beforeAttempt: 5_000) == .zero)
    }

    @Test func badArguments_areClampedNotTrapped() {
        let backoff = RetryBackoff.exponential(initial: .seconds(-1), multiplier: .nan, jitter: 7)
        #expect(backoff.delay(beforeAttempt: 3) == .zero)
        #expect(RetryBackoff.fixed(.seconds(-3)).delay(beforeAttempt: 2) == .zero)
    }
}
