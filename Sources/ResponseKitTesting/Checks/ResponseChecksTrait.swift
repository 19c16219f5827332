import ResponseKit
import Testing

/// A Swift Testing trait that makes every problem ResponseKit finds with a test's responses an
/// issue of **that** test, at the line that made the response.
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import Testing
///
/// @Test(.responseChecks) func theGreeting_namesTheUser() throws {
///     let greeting = Response<String>.succeeded("Ada").map { "Hello, \($0)" }
///     #expect(try greeting.value == "Hello, Ada")
/// }
///
/// @Suite(.responseChecks(allowing: .longWait))   // every test of the suite, each on its own
/// struct ProfileTests {
///     @Test func aProfile_loads() throws {
///         #expect(try Response<Int>(on: .global()) { 4 }.value == 4)
///     }
/// }
/// ```
///
/// Under it, each test case runs in a scope of its own (see ``ResponseChecks``): a diagnostic
/// about a response the test made (`.unobservedFailure`,
/// `abandoned`, `resolvedTwice`, `returnedSelf`, `mainQueueBlocked`, `longWait`, ...) is recorded
/// as an issue of the test, whichever thread reports it, as long as it comes before the test
/// ends; parallel tests each get their own. When the test ends, a response it made that is still
/// pending and referenced is an issue (`.pendingAtEnd`), and
/// so is work left in a `ManualExecutor`, `ManualScheduler` or ``StubbedCalls`` it made
/// (`.leftoverWork`), at the end or when the double was released before it. Such diagnostics no
/// longer reach `ResponseDiagnostics.handler`.
///
/// A test that provokes a problem on purpose says so with `expectDiagnostic(_:_:)`.
public struct ResponseChecksTrait: TestTrait, SuiteTrait, TestScoping {
    /// Kinds of problem that are not issues under this trait.
    public let allowed: Set<ResponseDiagnostic.Kind>

    /// Applied to every test of a suite it is attached to, each in a scope of its own.
    public var isRecursive: Bool { true }

    /// Makes the trait; see `.responseChecks` and
    /// `.responseChecks(allowing:)`.
    public init(allowing allowed: Set<ResponseDiagnostic.Kind> = []) {
        self.allowed = allowed
    }

    /// A scope per test case, none for a suite as a whole (its tests have their own).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case under the checks, then records each problem found as its issue.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let scope = ResponseCheckScope()
        do {
            try await scope.runAsync(function)
        } catch {
            Self.record(ResponseCheckProblem.problems(in: scope.finish(), allowing: allowed))
            throw error
        }
        Self.record(ResponseCheckProblem.problems(in: scope.finish(), allowing: allowed))
    }

    /// Records `problems` as issues of the current test, at the site that made each response.
    static func record(_ problems: [ResponseCheckProblem]) {
        for problem in problems {
            Issue.record(Comment(rawValue: problem.description), sourceLocation: problem.sourceLocation)
        }
    }
}

extension Trait where Self == ResponseChecksTrait {
    /// Every problem ResponseKit finds with the test's responses is an issue of the test.
    public static var responseChecks: Self { ResponseChecksTrait() }

    /// ``responseChecks``, but for the kinds of problem in `kinds`.
    ///
    /// - Parameter kinds: the kinds that are not issues, such as `.longWait` for a test that
    ///   blocks on purpose.
    public static func responseChecks(allowing kinds: ResponseDiagnostic.Kind...) -> Self {
        ResponseChecksTrait(allowing: Set(kinds))
    }
}

extension ResponseCheckProblem {
    /// Where Swift Testing shows the problem: the creation site (a well-formed file ID, a line
    /// of at least 1, as `SourceLocation` requires, even when the site is unknown).
    var sourceLocation: SourceLocation {
        let fileID = file.contains("/") ? file : "ResponseKit/\(file == "?" ? "unknown.swift" : file)"
        return SourceLocation(fileID: fileID, filePath: fileID, line: max(Int(line), 1), column: 1)
    }
}
