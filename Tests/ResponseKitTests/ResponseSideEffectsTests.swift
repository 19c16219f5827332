import ResponseKit
import ResponseKitTesting
import Testing

struct ResponseSideEffectsTests {
    @Test func intercept_seesTheValue_andPassesItOn() throws {
        let saved = Recorder<String>()
        let (response, resolver) = Response<String>.pending(on: .immediate)
        let user = response.intercept { saved.record($0) }
        resolver.succeed("ada")
        #expect(try user.value == "ada")
        #expect(saved.values == ["ada"])
    }

    @Test func intercept_runsBeforeTheResultIsDelivered() throws {
        let events = Recorder<String>()
        let (response, resolver) = Response<String>.pending(on: .immediate)
        response.intercept { _ in events.record("intercepted") }
            .onCompletion { _ in events.record("delivered") }
        resolver.succeed("x")
        #expect(events.values == ["intercepted", "delivered"])
    }

    @Test func intercept_isSkippedOnFailure() {
        let saved = Recorder<Int>()
        let response = Response<Int>.failed(TestError(), on: .immediate).intercept { saved.record($0) }
        #expect(response.error is TestError)
        #expect(saved.values.isEmpty)
    }

    @Test func always_runsOnSuccessFailureAndCancellation() {
        let outcomes = Recorder<String>()
        @Sendable func describe(_ result: Result<Int, any Error>) -> String {
            switch result {
            case .success(let value): "success \(value)"
            case .failure(let error): "failure \(type(of: error))"
            }
        }
        let ok = Response.succeeded(1, on: .immediate).always { outcomes.record(describe($0)) }
        let bad = Response<Int>.failed(TestError(), on: .immediate).always { outcomes.record(describe($0)) }
        let (pending, pendingResolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(pendingResolver) {} }  // pending on purpose: never resolved, never abandoned
        let cancelled = pending.always { outcomes.record(describe($0)) }
        pending.cancel()

        #expect(outcomes.values == ["success 1", "failure TestError", "failure CancellationError"])
        #expect(ok.isSuccessful)
        #expect(bad.error is TestError)
        #expect(cancelled.error is CancellationError)
    }

    @Test func always_runsWithTheCancellation_whenTheResponseItReturnsIsCancelled() {
        // The spinner case: `load().always { hideSpinner() }`, and the screen cancels what it holds.
        let outcomes = Recorder<String>()
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let guarded = work.always { outcomes.record(Self.describe($0)) }
        guarded.cancel()
        #expect(outcomes.values == ["failure CancellationError"])
        #expect(resolver.isCancelled)
    }

    @Test func always_runs_whenATimeoutAfterItGivesUp() {
        let scheduler = ManualScheduler()
        let outcomes = Recorder<String>()
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let limited = work.always { outcomes.record(Self.describe($0)) }
            .timeout(after: .seconds(1), scheduler: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(limited.error as? ResponseError == .deadlineExceeded)
        #expect(outcomes.values == ["failure CancellationError"])
        #expect(resolver.isCancelled)
    }

    @Test func always_runsOnce_whenItsResponseIsCancelled_andTheWorkFinishesLater() throws {
        let outcomes = Recorder<String>()
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        let other = work.map { $0 }  // keeps the work going
        let guarded = work.always { outcomes.record(Self.describe($0)) }
        guarded.cancel()
        resolver.succeed(1)
        #expect(try other.value == 1)
        #expect(outcomes.values == ["failure CancellationError"])
    }

    @Test func always_runsOnItsContext_whenItsResponseIsCancelled() {
        let manual = ManualExecutor()
        let outcomes = Recorder<String>()
        let (work, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }  // cancelled, never resolved
        let guarded = work.always(on: manual.executor) { outcomes.record(Self.describe($0)) }
        guarded.cancel()
        #expect(outcomes.values.isEmpty)
        manual.runAll()
        #expect(outcomes.values == ["failure CancellationError"])
    }

    @Sendable static func describe(_ result: Result<Int, any Error>) -> String {
        switch result {
        case .success(let value): "success \(value)"
        case .failure(let error): "failure \(type(of: error))"
        }
    }

    @Test func always_withoutArguments_runsOnEitherOutcome() {
        let runs = Recorder<Bool>()
        let ok = Response.succeeded(1, on: .immediate).always { runs.record(true) }
        let bad = Response<Int>.failed(TestError(), on: .immediate).always { runs.record(true) }
        #expect(runs.count == 2)
        #expect(ok.isSuccessful)
        #expect(bad.error is TestError)
    }

    @Test func decoratorChain_validatesThenIntercepts() throws {
        // The AuthenticationUseCase style: useCase.addValidation().intercept { user in ... }
        struct InvalidEmail: Error {}
        let recorded = Recorder<String>()
        func signIn(_ email: String) -> Response<String> {
            Response<String>.succeeded(email, on: .immediate)
                .validate(orFailWith: InvalidEmail()) { $0.contains("@") }
                .intercept { recorded.record($0) }
        }
        #expect(try signIn("ada@example.com").value == "ada@example.com")
        #expect(signIn("nope").error is InvalidEmail)
        #expect(recorded.values == ["ada@example.com"])
    }
}

struct ResponseValidateTests {
    struct TooSmall: Error {}

    @Test func validate_throwingCheck_failsWithTheCallersError() {
        let response = Response.succeeded(1, on: .immediate).validate { value in
            if value < 10 { throw TooSmall() }
        }
        #expect(response.error is TooSmall)
    }

    @Test func validate_throwingCheck_passesGoodValues() throws {
        let response = Response.succeeded(20, on: .immediate).validate { value in
            if value < 10 { throw TooSmall() }
        }
        #expect(try response.value == 20)
    }

    @Test func validate_predicateWithError_failsWithThatError() {
        let response = Response.succeeded(1, on: .immediate).validate(orFailWith: TooSmall()) { $0 >= 10 }
        #expect(response.error is TooSmall)
    }

    @Test func validate_predicateAlone_failsWithValidationFailed() throws {
        let bad = Response.succeeded(1, on: .immediate).validate { $0 >= 10 }
        let good = Response.succeeded(11, on: .immediate).validate { $0 >= 10 }
        #expect(bad.error as? ResponseError == .validationFailed)
        #expect(try good.value == 11)
    }

    @Test func validate_passesFailuresThrough() {
        let response = Response<Int>.failed(TestError(code: 4), on: .immediate).validate { $0 > 0 }
        #expect(response.error as? TestError == TestError(code: 4))
    }
}
