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
///
/// **No test hangs in silence.** A blocking read that holds the main queue (a `@MainActor`
/// test) and is still waiting after `ResponseDiagnostics.mainQueueBlockedThreshold` of free
/// worker threads, or any read waiting longer than `ResponseDiagnostics.longWaitThreshold`, is
/// written to standard error at once, naming the test and the response. A read with no timeout
/// that is still waiting at the test's *wait limit* (`waitLimit:`, by default the long-wait
/// threshold, ten seconds) gives up: it throws `ResponseError.waitLimitExceeded` (`error`
/// returns it), so the test ends as a failure instead of hanging the run.
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import Testing
///
/// @Test(.responseChecks(waitLimit: .seconds(30)))   // a test that waits long on purpose
/// func aLongImport_finishes() throws {
///     #expect(try Response<Int>(on: .global()) { 42 }.value == 42)
/// }
/// ```
public struct ResponseChecksTrait: TestTrait, SuiteTrait, TestScoping {
    /// Kinds of problem that are not issues under this trait.
    public let allowed: Set<ResponseDiagnostic.Kind>

    /// The wait limit in nanoseconds; `nil` for the long-wait threshold.
    let waitLimitNanoseconds: UInt64?

    /// Applied to every test of a suite it is attached to, each in a scope of its own.
    public var isRecursive: Bool { true }

    /// Makes the trait; see `.responseChecks` and
    /// `.responseChecks(allowing:)`.
    public init(allowing allowed: Set<ResponseDiagnostic.Kind> = []) {
        self.allowed = allowed
        self.waitLimitNanoseconds = nil
    }

    /// Makes the trait with a wait limit; see `.responseChecks(allowing:waitLimit:)`.
    ///
    /// - Parameters:
    ///   - allowed: the kinds of problem that are not issues.
    ///   - waitLimit: how long a blocking read with no timeout may wait before it gives up with
    ///     `ResponseError.waitLimitExceeded`, so that the test ends.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public init(allowing allowed: Set<ResponseDiagnostic.Kind> = [], waitLimit: Duration) {
        self.allowed = allowed
        self.waitLimitNanoseconds = max(waitLimit, .milliseconds(1)).saturatingNanoseconds
    }

    /// The read's limit for this trait's tests.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public var waitLimit: Duration {
        waitLimitNanoseconds.map { .nanoseconds(Int64(clamping: $0)) } ?? ResponseDiagnostics.longWaitThreshold
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
        let scope = ResponseCheckScope(testName: Self.name(of: test), waitLimit: waitLimitNanoseconds)
        do {
            try await scope.runAsync(function)
        } catch {
            Self.record(ResponseCheckProblem.problems(in: scope.finish(), allowing: allowed), of: test)
            throw error
        }
        Self.record(ResponseCheckProblem.problems(in: scope.finish(), allowing: allowed), of: test)
    }

    /// Records `problems` as issues of the current test, at the site that made each response.
    static func record(_ problems: [ResponseCheckProblem], of test: Test) {
        for problem in problems {
            Issue.record(
                Comment(rawValue: problem.description),
                sourceLocation: problem.sourceLocation(near: test.sourceLocation.filePath)
            )
        }
    }

    /// The test as Swift Testing shows it: `Suite/name()` at its file and line.
    static func name(of test: Test) -> String {
        "\(test.id.nameComponents.joined(separator: "/")) (\(test.sourceLocation.fileID):\(test.sourceLocation.line))"
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

    /// ``responseChecks``, with a wait limit of the test's own (and, optionally, kinds allowed).
    ///
    /// - Parameters:
    ///   - kinds: the kinds that are not issues.
    ///   - waitLimit: how long a blocking read with no timeout may wait before it throws
    ///     `ResponseError.waitLimitExceeded` and the test ends; by default
    ///     `ResponseDiagnostics.longWaitThreshold`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public static func responseChecks(allowing kinds: ResponseDiagnostic.Kind..., waitLimit: Duration) -> Self {
        ResponseChecksTrait(allowing: Set(kinds), waitLimit: waitLimit)
    }
}

extension ResponseCheckProblem {
    /// Where Swift Testing shows the problem: the creation site (a well-formed file ID, a line
    /// of at least 1, as `SourceLocation` requires, even when the site is unknown), with the real
    /// path of its file when it is in the package of `testFile` (``SourceFilePaths``).
    func sourceLocation(near testFile: String?) -> SourceLocation {
        let fileID = file.contains("/") ? file : "ResponseKit/\(file == "?" ? "unknown.swift" : file)"
        let filePath = SourceFilePaths.path(of: fileID, near: testFile) ?? fileID
        return SourceLocation(fileID: fileID, filePath: filePath, line: max(Int(line), 1), column: 1)
    }
}
