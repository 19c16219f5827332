import Dispatch
import Foundation
import ResponseKit
import ResponseKitTesting
import Testing

/// The response checks: every problem ResponseKit finds with a response belongs to the run (the
/// test) that made the response, whichever thread reports it, and nowhere else.
struct ResponseChecksTests {
    struct Failure: Error {}

    // MARK: - each kind of problem

    @Test func aFailureNobodyObserved_isTheRunsProblem_atItsCreationSite() {
        let problems = ResponseChecks.run {
            _ = Response<Int>.failed(Failure(), on: .immediate)
        }
        #expect(problems.map(\.kind) == [.unobservedFailure])
        #expect(problems.first?.file == #fileID)
        #expect(problems.first?.line == UInt(#line) - 4)
    }

    @Test func aDroppedResolver_isTheRunsProblem() {
        let problems = ResponseChecks.run {
            _ = Response<Int>.pending(on: .immediate).response
        }
        #expect(problems.map(\.kind) == [.abandoned])
    }

    @Test func aSecondResolve_isTheRunsProblem() {
        let problems = ResponseChecks.run {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            resolver.succeed(1)
            resolver.succeed(2)
            _ = response
        }
        #expect(problems.map(\.kind) == [.resolvedTwice])
    }

    @Test func aFlatMapReturningItself_isTheRunsProblem() {
        let problems = ResponseChecks.run {
            let (source, resolver) = Response<Int>.pending(on: .immediate)
            let box = Recorder<Response<Int>>()
            let derived = source.flatMap { _ in box.values[0] }
            box.record(derived)
            resolver.succeed(1)
            _ = derived.error
        }
        #expect(problems.map(\.kind) == [.returnedSelf])
    }

    @Test func aResponseStillPendingAtTheEnd_isTheRunsProblem_withItsAge() {
        let (response, resolver) = ResponseChecksTests.keep()
        let problems = ResponseChecks.run {
            let made = Response<Int>.pending(on: .immediate)
            response.record(made.response)
            resolver.record(made.resolver)
        }
        #expect(problems.map(\.kind) == [.pendingAtEnd])
        #expect(problems.first?.message.contains("pending for") == true)
        resolver.values[0].succeed(1)
    }

    @Test func aResponseReleasedPending_isNoProblemOfItsOwn_butItsAbandonmentIs() {
        let problems = ResponseChecks.run {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            _ = (response, resolver)
        }
        #expect(problems.map(\.kind) == [.abandoned])
    }

    @Test func jobsLeftInAManualExecutorOrScheduler_areTheRunsProblems() {
        let kept = Recorder<any AnyObject & Sendable>()
        let problems = ResponseChecks.run {
            let executor = ManualExecutor()
            executor.execute {}
            let scheduler = ManualScheduler()
            _ = scheduler.schedule(after: .seconds(1)) {}
            kept.record(executor)
            kept.record(scheduler)
        }
        #expect(problems.map(\.kind) == [.leftoverWork, .leftoverWork])
        #expect(problems.allSatisfy { $0.file == #fileID })
    }

    @Test func aCleanRun_hasNoProblems() {
        let problems = ResponseChecks.run {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            let doubled = response.map { $0 * 2 }
            resolver.succeed(21)
            #expect((try? doubled.value) == 42)
            let executor = ManualExecutor()
            let (delivered, deliveredResolver) = Response<Int>.pending(on: executor)
            delivered.onCompletion { _ in }
            deliveredResolver.succeed(1)
            #expect(executor.runAll() == 1)
        }
        #expect(problems.isEmpty)
    }

    @Test func allowedKinds_areNoProblems() {
        let problems = ResponseChecks.run(allowing: [.abandoned]) {
            _ = Response<Int>.pending(on: .immediate).response
            _ = Response<Int>.failed(Failure(), on: .immediate)
        }
        #expect(problems.map(\.kind) == [.unobservedFailure])
    }

    // MARK: - attribution

    @Test func aDiagnosticReportedOnAnotherThread_afterTheBodyReturned_isStillTheRuns() {
        let released = DispatchSemaphore(value: 0)
        let scope = ResponseCheckScope()
        scope.run {
            let failed = LockedBox<Response<Int>?>.make(Response<Int>.failed(Failure(), on: .immediate))
            // Released later, on another thread: its report comes after the body returned.
            DispatchQueue.global().async {
                failed.withLock { $0 = nil }
                released.signal()
            }
        }
        #expect(released.wait(timeout: .now() + 30) == .success)
        let problems = ResponseCheckProblem.problems(in: scope.finish(), allowing: [])
        #expect(problems.map(\.kind) == [.unobservedFailure])
    }

    @Test func aResponseDerivedOnAnotherThread_isTheRunsToo() {
        let problems = ResponseChecks.run {
            let (source, resolver) = Response<Int>.pending(on: .immediate)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                // Made off the test's task, from a response the test made: still the test's.
                _ = source.map { _ -> Int in throw Failure() }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
            resolver.succeed(1)
            #expect((try? source.value) == 1)
        }
        #expect(problems.map(\.kind) == [.unobservedFailure])
    }

    @Test func problemsOfACheckedRun_neverReachTheHandler() {
        let recorder = DiagnosticsRecorder.shared
        var line: UInt = 0
        let problems = ResponseChecks.run {
            _ = Response<Int>.failed(Failure(), on: .immediate)
            line = #line - 1
        }
        #expect(problems.count == 1)
        #expect(recorder.values(createdAt: line).isEmpty)
    }

    @Test func aHundredRunsAtOnce_eachGetOnlyItsOwnProblems() async {
        let kinds: [ResponseDiagnostic.Kind] = [
            .unobservedFailure, .abandoned, .resolvedTwice, .pendingAtEnd, .leftoverWork,
        ]
        let results = await withTaskGroup(of: (Int, [ResponseCheckProblem]).self) { group in
            for index in 0..<100 {
                group.addTask {
                    let kept = Recorder<any AnyObject & Sendable>()
                    let problems = await ResponseChecks.run {
                        await Task.yield()  // interleave with the other runs
                        Self.provoke(kinds[index % kinds.count], index: index, keeping: kept)
                    }
                    Self.settle(kept)
                    return (index, problems)
                }
            }
            var results: [Int: [ResponseCheckProblem]] = [:]
            for await (index, problems) in group { results[index] = problems }
            return results
        }
        #expect(results.count == 100)
        for (index, problems) in results {
            #expect(problems.map(\.kind) == [kinds[index % kinds.count]], "run \(index)")
            // Each problem names the line its own run provoked, tagged with the run's index.
            #expect(problems.allSatisfy { $0.line == UInt(10_000 + index) }, "run \(index): \(problems)")
        }
    }

    // MARK: - helpers

    static func keep() -> (Recorder<Response<Int>>, Recorder<Resolver<Int>>) {
        (Recorder(), Recorder())
    }

    /// Provokes one problem of `kind`, made at line 10,000 + `index`, so that each run's problems
    /// can be told apart.
    static func provoke(_ kind: ResponseDiagnostic.Kind, index: Int, keeping kept: Recorder<any AnyObject & Sendable>) {
        let line = UInt(10_000 + index)
        switch kind {
        case .unobservedFailure:
            _ = Response<Int>.failed(Failure(), on: .immediate, line: line)
        case .abandoned:
            _ = Response<Int>.pending(on: .immediate, line: line).response
        case .resolvedTwice:
            let (response, resolver) = Response<Int>.pending(on: .immediate, line: line)
            resolver.succeed(1)
            resolver.succeed(2)
            kept.record(response)
        case .pendingAtEnd:
            let (response, resolver) = Response<Int>.pending(on: .immediate, line: line)
            kept.record(response)
            kept.record(ResolverBox(resolver))
        default:
            let executor = ManualExecutor(line: line)
            executor.execute {}
            kept.record(executor)
        }
    }

    /// Lets go of what a run kept, answering what it left pending.
    static func settle(_ kept: Recorder<any AnyObject & Sendable>) {
        for object in kept.values {
            (object as? ResolverBox)?.resolver.succeed(0)
            (object as? ManualExecutor)?.runAll()
        }
    }

    final class ResolverBox: Sendable {
        let resolver: Resolver<Int>
        init(_ resolver: Resolver<Int>) { self.resolver = resolver }
    }
}
