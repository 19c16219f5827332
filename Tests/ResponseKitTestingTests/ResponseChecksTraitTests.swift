import ResponseKit
import ResponseKitTesting
import Testing

/// The trait and `expectDiagnostic`: a problem is an issue of the test, at the line that made the
/// response; one the test provokes on purpose is taken by `expectDiagnostic`.
@Suite(.responseChecks)
struct ResponseChecksTraitTests {
    struct Failure: Error {}

    @Test func aProblem_isAnIssueOfTheTest_atTheLineThatMadeTheResponse() async throws {
        let line = #line + 4
        try await withKnownIssue {
            // Runs the trait's scope as Swift Testing does, inside the known-issue block.
            try await ResponseChecksTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                _ = Response<Int>.failed(Failure(), on: .immediate)
            }
        } matching: { issue in
            issue.sourceLocation?.line == line && "\(issue)".contains("ResponseKit unobservedFailure")
        }
    }

    @Test func aResponseLeftPending_isAnIssueOfTheTest() async throws {
        let kept = Recorder<Resolver<Int>>()
        try await withKnownIssue {
            try await ResponseChecksTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                let (response, resolver) = Response<Int>.pending(on: .immediate)
                kept.record(resolver)
                _ = response.map { $0 }
            }
        } matching: { issue in
            "\(issue)".contains("pendingAtEnd")
        }
        kept.values[0].succeed(1)
    }

    @Test func anAllowedKind_isNoIssue() async throws {
        try await ResponseChecksTrait(allowing: [.abandoned]).provideScope(
            for: Test.current!,
            testCase: Test.Case.current
        ) {
            _ = Response<Int>.pending(on: .immediate).response
        }
    }

    @Test func aCleanTest_underTheSuitesChecks_passes() throws {
        let (response, resolver) = Response<String>.pending()
        resolver.succeed("Ada")
        #expect(try response.value == "Ada")
    }

    // MARK: - expectDiagnostic

    @Test func expectDiagnostic_takesTheProblemItExpects() {
        let response = expectDiagnostic(.abandoned) {
            Response<Int>.pending(on: .immediate).response  // its resolver goes at once
        }
        #expect(response.error as? ResponseError == .abandoned)
    }

    @Test func expectDiagnostic_withoutTheProblem_isAnIssue() {
        withKnownIssue {
            expectDiagnostic(.abandoned) {}
        } matching: { issue in
            "\(issue)".contains("expected ResponseKit to report a abandoned diagnostic")
        }
    }

    @Test func expectDiagnostic_leavesOtherProblemsToTheTest() {
        let problems = ResponseChecks.run {
            expectDiagnostic(.abandoned) {
                _ = Response<Int>.pending(on: .immediate).response
                _ = Response<Int>.failed(Failure(), on: .immediate)
            }
        }
        #expect(problems.map(\.kind) == [.unobservedFailure])
    }

    @Test func expectDiagnostic_handsWhatItMadeToTheTest_forTheEndOfTestCheck() {
        let kept = Recorder<Resolver<Int>>()
        let problems = ResponseChecks.run {
            expectDiagnostic(.resolvedTwice) {
                let (response, resolver) = Response<Int>.pending(on: .immediate)
                resolver.succeed(1)
                resolver.succeed(2)
                let (pending, pendingResolver) = Response<Int>.pending(on: .immediate)
                kept.record(pendingResolver)
                _ = (response, pending.map { $0 })
            }
        }
        // The pending response and the one derived from it, both made inside the expectation.
        #expect(problems.map(\.kind) == [.pendingAtEnd, .pendingAtEnd])
        kept.values[0].succeed(1)
    }
}
