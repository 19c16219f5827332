import ResponseKit
import ResponseKitTesting
import Testing

/// What every operator with one input promises, whatever it does besides (the contract peers'
/// suites check operator by operator: google/promises' `then`/`always`/`timeout`/`delay`, swift-nio's
/// `map`/`always`/`flatMapError`): a value it does not transform and an error it does not handle
/// come out unchanged, and cancelling what it returns reaches the work it waits on.
struct ResponseOperatorContractTests {
    /// Each operator, applied with arguments that leave the outcome alone. Time-based ones run on
    /// the scheduler given; ``settle(_:)`` moves it past their pauses and before their deadlines.
    enum Operator: String, CaseIterable, CustomTestStringConvertible {
        case map, flatMap, recover, flatMapError, mapError, intercept, always, validate
        case validateOrFailWith, timeout, delay, race, all, zipWithNothing, retryOnce

        var testDescription: String { rawValue }

        func apply(to input: Response<Int>, scheduler: ManualScheduler) -> Response<Int> {
            switch self {
            case .map: input.map { $0 }
            case .flatMap: input.flatMap { Response.succeeded($0, on: .immediate) }
            case .recover: input.recover { error in throw error }
            case .flatMapError: input.flatMapError { Response.failed($0, on: .immediate) }
            case .mapError: input.mapError { $0 }
            case .intercept: input.intercept { _ in }
            case .always: input.always { _ in }
            case .validate: input.validate { _ in }
            case .validateOrFailWith: input.validate(orFailWith: TestError(code: -1)) { _ in true }
            case .timeout: input.timeout(after: .seconds(10), scheduler: scheduler)
            case .delay: input.delay(by: .seconds(1), scheduler: scheduler)
            case .race: Response.race([input], on: .immediate)
            case .all: Response.all([input], on: .immediate).map { $0[0] }
            case .zipWithNothing: input.zip()
            case .retryOnce: Response.retry(attempts: 1, scheduler: scheduler, on: .immediate) { input }
            }
        }

        /// Lets the time-based operators pass the outcome on.
        static func settle(_ scheduler: ManualScheduler) {
            scheduler.advance(by: .seconds(1))
        }
    }

    @Test(arguments: Operator.allCases)
    func aValue_comesOutUnchanged(_ step: Operator) throws {
        let scheduler = ManualScheduler()
        let (input, resolver) = Response<Int>.pending(on: .immediate)
        let output = step.apply(to: input, scheduler: scheduler)
        resolver.succeed(42)
        Operator.settle(scheduler)
        #expect(try output.wait(timeout: .zero) == 42)
    }

    @Test(arguments: Operator.allCases)
    func aValueAlreadyThere_comesOutUnchanged(_ step: Operator) throws {
        let scheduler = ManualScheduler()
        let output = step.apply(to: .succeeded(42, on: .immediate), scheduler: scheduler)
        Operator.settle(scheduler)
        #expect(try output.wait(timeout: .zero) == 42)
    }

    @Test(arguments: Operator.allCases)
    func anError_comesOutUnchanged(_ step: Operator) {
        let scheduler = ManualScheduler()
        let (input, resolver) = Response<Int>.pending(on: .immediate)
        let output = step.apply(to: input, scheduler: scheduler)
        resolver.fail(TestError(code: 7))
        Operator.settle(scheduler)
        #expect(throws: TestError(code: 7)) { try output.wait(timeout: .zero) }
    }

    @Test(arguments: Operator.allCases)
    func aCancellationOfTheInput_comesOutAsACancellation(_ step: Operator) {
        let scheduler = ManualScheduler()
        let (input, resolver) = Response<Int>.pending(on: .immediate)
        defer { withExtendedLifetime(resolver) {} }  // cancelled, never resolved
        let output = step.apply(to: input, scheduler: scheduler)
        input.cancel()
        #expect(throws: CancellationError.self) { try output.wait(timeout: .zero) }
    }

    @Test(arguments: Operator.allCases)
    func cancellingWhatItReturns_cancelsTheWorkItWaitsOn(_ step: Operator) {
        let scheduler = ManualScheduler()
        let (input, resolver) = Response<Int>.pending(on: .immediate)
        let output = step.apply(to: input, scheduler: scheduler)
        #expect(output.cancel())
        #expect(resolver.isCancelled)
        #expect(scheduler.pendingCount == 0)  // no timer left behind
    }

    @Test(arguments: Operator.allCases)
    func cancellingWhatItReturns_sparesWorkThatSomethingElseWaitsOn(_ step: Operator) throws {
        let scheduler = ManualScheduler()
        let (input, resolver) = Response<Int>.pending(on: .immediate)
        let other = input.map { $0 + 1 }
        step.apply(to: input, scheduler: scheduler).cancel()
        #expect(!resolver.isCancelled)
        resolver.succeed(1)
        #expect(try other.value == 2)
    }
}
