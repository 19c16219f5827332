import ResponseKit

/// Runs code under ResponseKit's response checks, for a test framework that has no trait or base
/// class of ours (the trait ``ResponseChecksTrait`` and ``ResponseChecksTestCase`` build on it).
///
/// Every response `body` makes, and every response derived from one of those wherever it is made,
/// belongs to this run: a diagnostic about it (an unobserved failure, a dropped resolver, a
/// second resolve, a blocked main queue, a long wait, a `flatMap` that returned itself) is
/// collected here, on whatever thread and at whatever time it is reported before the run ends,
/// instead of going to `ResponseDiagnostics.handler`. Runs in parallel each collect
/// their own. At the end, the responses still pending and referenced, and the work left in the
/// `ManualExecutor`s, `ManualScheduler`s and `StubbedCalls` made in it, are problems too, as are
/// jobs left in a manual executor or scheduler released before the end.
///
/// <!-- example: fragment -->
/// ```swift
/// struct SomeError: Error {}
/// let problems = ResponseChecks.run {
///     let (_, resolver) = Response<Int>.pending(on: .immediate)
///     resolver.fail(SomeError())            // a failure nobody observes
/// }
/// #expect(problems.map(\.kind) == [.unobservedFailure])
/// ```
public enum ResponseChecks {
    /// Runs `body` under the checks and returns the problems found, oldest first.
    ///
    /// - Parameters:
    ///   - allowed: kinds of problem not to return.
    ///   - body: the code to check.
    /// - Returns: the problems, with the creation site of the response or double concerned.
    public static func run(
        allowing allowed: Set<ResponseDiagnostic.Kind> = [],
        _ body: () throws -> Void
    ) rethrows -> [ResponseCheckProblem] {
        let scope = ResponseCheckScope()
        try scope.run(body)
        return ResponseCheckProblem.problems(in: scope.finish(), allowing: allowed)
    }

    /// Runs async `body` under the checks (its child tasks too) and returns the problems found.
    ///
    /// - Parameters:
    ///   - allowed: kinds of problem not to return.
    ///   - body: the code to check.
    /// - Returns: the problems, with the creation site of the response or double concerned.
    public static func run(
        allowing allowed: Set<ResponseDiagnostic.Kind> = [],
        _ body: () async throws -> Void
    ) async rethrows -> [ResponseCheckProblem] {
        let scope = ResponseCheckScope()
        try await scope.runAsync(body)
        return ResponseCheckProblem.problems(in: scope.finish(), allowing: allowed)
    }
}

extension ResponseChecks {
    /// Returns `body`, made to run under the response checks of the code that calls this: for work
    /// a test hands to a `Thread` or a `DispatchQueue` of its own, whose responses are then the
    /// test's too.
    ///
    /// Responses made in the test's code, in its child tasks, and in the transforms, callbacks and
    /// `Response(on:)` bodies of its responses are the test's already, on any thread. Work started
    /// some other way runs where no test is known; wrap it once:
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// let (response, resolver) = Response<Int>.pending(on: .immediate)
    /// DispatchQueue.global().async(execute: ResponseChecks.propagating {
    ///     let step = Response<Int>(on: .global()) { 20 }   // the test's, though made off its thread
    ///     resolver.succeed(try! step.value + 22)
    /// })
    /// #expect(try response.value == 42)
    /// ```
    ///
    /// Outside checked code, `body` runs as it is.
    ///
    /// - Parameter body: the work to run elsewhere.
    /// - Returns: a closure that runs `body` under the caller's checks.
    public static func propagating<Result>(_ body: @escaping @Sendable () -> Result) -> @Sendable () -> Result {
        guard let scope = ResponseCheckScope.current else { return body }
        return { scope.run(body) }
    }
}
