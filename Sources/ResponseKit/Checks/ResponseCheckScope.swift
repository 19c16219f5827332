import CResponseKit
import Dispatch

/// One test's record of what ResponseKit finds wrong with the responses made in it: the engine's
/// side of ResponseKitTesting's response checks (`.responseChecks`, `ResponseChecksTestCase`).
///
/// A response made while a scope is current (a task-local value, so a test's child tasks share
/// it and a parallel test has its own) belongs to that scope for its whole life, and so does a
/// response derived from it, wherever it is made: every diagnostic about it is *received* here
/// instead of going to ``ResponseDiagnostics/handler``, whichever thread reports it. When the test
/// ends, ``finish()`` hands over what was received and the responses still pending and alive.
///
/// `package`: only ResponseKitTesting builds on it.
package final class ResponseCheckScope: Sendable {
    /// The scope of the code running now, if any.
    @TaskLocal package static var current: ResponseCheckScope?

    /// Something a test made that may be left with work at the end (a `ManualExecutor`, a
    /// `ManualScheduler`, a stub of a gateway): asked once the test is over.
    package protocol Watched: AnyObject, Sendable {
        /// What was left undone, one sentence each, with the site to point at; empty when nothing.
        func leftovers() -> [Leftover]
    }

    /// A thing left undone at the end of a test.
    package struct Leftover: Sendable {
        package let message: String
        package let file: String
        package let line: UInt

        package init(message: String, file: String, line: UInt) {
            self.message = message
            self.file = file
            self.line = line
        }
    }

    /// What the scope found, once it is finished.
    package struct Findings: Sendable {
        /// The diagnostics about its responses, in the order they came.
        package var diagnostics: [ResponseDiagnostic]
        /// Its responses still pending, and alive, at the end.
        package var pending: [PendingResponse]
        /// What its test doubles were left with.
        package var leftovers: [Leftover]

        /// Whether nothing was found.
        package var isEmpty: Bool { diagnostics.isEmpty && pending.isEmpty && leftovers.isEmpty }
    }

    private struct Made: Sendable {
        /// Weak: the scope must not keep a response alive, or every response would be "alive".
        weak var response: (any AnyResponse)?
        let madeAt: UInt64
    }

    private struct WeakWatched: Sendable {
        weak var watched: (any Watched)?
    }

    private struct State: Sendable {
        var diagnostics: [ResponseDiagnostic] = []
        var made: [ObjectIdentifier: Made] = [:]
        /// Responses a test double answers for itself (it reports them among its leftovers).
        var excluded: Set<ObjectIdentifier> = []
        var watched: [WeakWatched] = []
        var isFinished = false
    }

    /// The scope this one sits in (`expectDiagnostic` inside a checked test): what it does not
    /// take for itself, and what arrives after it finished, goes there.
    package let parent: ResponseCheckScope?
    /// The test, as its framework names it, for what is written at once (a wait that may hang).
    package let testName: String?
    /// How long a blocking read with no timeout in the test may wait before it gives up
    /// (``ResponseError/waitLimitExceeded``), in nanoseconds; `nil` for the parent's, or
    /// ``ResponseDiagnostics/longWaitThreshold``.
    private let ownWaitLimit: UInt64?
    private let state = LockedBox.make(State())

    /// A scope inside `parent`, by default the current one.
    ///
    /// - Parameters:
    ///   - parent: the scope this one sits in.
    ///   - testName: the test's name, for what is written to standard error at once.
    ///   - waitLimit: the test's wait limit in nanoseconds; `nil` for the parent's, or the
    ///     long-wait threshold.
    package init(
        parent: ResponseCheckScope? = ResponseCheckScope.current,
        testName: String? = nil,
        waitLimit: UInt64? = nil
    ) {
        self.parent = parent
        self.testName = testName ?? parent?.testName
        self.ownWaitLimit = waitLimit
    }

    /// How long a blocking read with no timeout in this scope waits before it gives up.
    package var waitLimitNanoseconds: UInt64 {
        ownWaitLimit ?? parent?.waitLimitNanoseconds ?? ResponseDiagnostics.longWaitThresholdNanoseconds
    }

    // MARK: - Running

    /// Runs `body` with this scope current.
    package func run<R>(_ body: () throws -> R) rethrows -> R {
        rk_check_scopes_count(1)
        defer { rk_check_scopes_count(-1) }
        return try Self.$current.withValue(self) { try body() }
    }

    /// Runs `body` with no scope current: for code that runs jobs of others on the caller's
    /// thread (a read on the main queue runs ResponseKit's main-queue jobs, every test's), which
    /// would otherwise make the responses of those jobs the caller's test's. The jobs of checked
    /// responses carry their own scope (``ResponseCheckScopeTable/binding(_:toScopeOf:)``). One
    /// relaxed load while no test checks responses.
    package static func outsideAnyScope<R>(_ body: () throws -> R) rethrows -> R {
        guard rk_check_scopes_are_running(), current != nil else { return try body() }
        return try $current.withValue(nil) { try body() }
    }

    /// Runs async `body` with this scope current, in its task and the child tasks it makes.
    package func runAsync<R>(_ body: () async throws -> R) async rethrows -> R {
        rk_check_scopes_count(1)
        defer { rk_check_scopes_count(-1) }
        return try await Self.$current.withValue(self) { try await body() }
    }

    /// Ends the scope and says what it found. Diagnostics about its responses that arrive later go
    /// to its parent, or to ``ResponseDiagnostics/handler`` when it has none.
    ///
    /// - Parameter handingOverToParent: whether the parent takes over the scope's responses and
    ///   doubles, to check them when *it* finishes (a scope that only looked out for a diagnostic);
    ///   the findings then hold only the diagnostics.
    package func finish(handingOverToParent: Bool = false) -> Findings {
        let now = DispatchTime.now().uptimeNanoseconds
        let (diagnostics, made, excluded, watched) = state.withLock { state in
            state.isFinished = true
            return (state.diagnostics, state.made, state.excluded, state.watched)
        }
        if handingOverToParent, let parent {
            parent.state.withLock { parentState in
                parentState.made.merge(made) { older, _ in older }
                parentState.excluded.formUnion(excluded)
                parentState.watched += watched
            }
            return Findings(diagnostics: diagnostics, pending: [], leftovers: [])
        }
        // Outside the lock: a snapshot takes each response's lock, and a double's own.
        let pending = made.filter { !excluded.contains($0.key) }.values
            .sorted { $0.madeAt < $1.madeAt }
            .compactMap { made in made.response?.pendingSnapshot(age: .nanoseconds(Int(clamping: now &- made.madeAt))) }
        let leftovers = watched.compactMap(\.watched).flatMap { $0.leftovers() }
        return Findings(diagnostics: diagnostics, pending: pending, leftovers: leftovers)
    }

    /// Whether this scope sits, at any depth, inside `outer`.
    private func sits(in outer: ResponseCheckScope) -> Bool {
        var scope = parent
        while let candidate = scope {
            if candidate === outer { return true }
            scope = candidate.parent
        }
        return false
    }

    // MARK: - What belongs to the scope

    /// Records `response`, made in this scope now.
    func adopt(_ response: any AnyResponse) {
        let made = Made(response: response, madeAt: DispatchTime.now().uptimeNanoseconds)
        state.withLock { $0.made[ObjectIdentifier(response)] = made }
    }

    /// A response released: nothing to check about it at the end.
    func forget(_ response: ObjectIdentifier) {
        _ = state.withLock { $0.made.removeValue(forKey: response) }
    }

    /// Leaves `response` out of the end-of-test check for pending responses: a test double that
    /// made it reports it itself, in words of its own.
    package func excludeFromPendingCheck(_ response: ObjectIdentifier) {
        _ = state.withLock { $0.excluded.insert(response) }
    }

    /// Asks `watched` what it was left with when the scope finishes.
    package func watch(_ watched: some Watched) {
        state.withLock { $0.watched.append(WeakWatched(watched: watched)) }
    }

    /// Takes a diagnostic about one of its responses, or passes it on once finished: to its
    /// parent, or to ``ResponseDiagnostics/handler`` when every scope around it has finished too.
    ///
    /// One reported while a scope inside this one is current on the reporting thread (the test's
    /// `expectDiagnostic` body resolving a response the test made before) goes to that inner
    /// scope: it is what the inner scope is there to catch.
    package func receive(_ diagnostic: ResponseDiagnostic) {
        if !receiveUnlessAllFinished(diagnostic) {
            ResponseDiagnostics.handler(diagnostic)
        }
    }

    /// Takes `diagnostic` as ``receive(_:)`` does, but leaves it to the caller when this scope and
    /// every scope around it have finished (a test double released after its test fails the test
    /// running then instead).
    ///
    /// - Returns: `false` when no scope took the diagnostic.
    package func receiveUnlessAllFinished(_ diagnostic: ResponseDiagnostic) -> Bool {
        // A loop, not a call of `receive` on the inner scope: an inner scope still current after
        // it finished (an unstructured task keeps task-locals) would pass the diagnostic back here.
        if let inner = ResponseCheckScope.current, inner !== self, inner.sits(in: self) {
            var scope: ResponseCheckScope? = inner
            while let candidate = scope, candidate !== self {
                if candidate.take(diagnostic) { return true }
                scope = candidate.parent
            }
        }
        return take(diagnostic) || parent?.receiveUnlessAllFinished(diagnostic) == true
    }

    /// Keeps `diagnostic`, unless the scope has finished.
    ///
    /// A wait that may never end (``ResponseDiagnostic/Kind/mainQueueBlocked``,
    /// ``ResponseDiagnostic/Kind/longWait``) is also written to standard error at once, naming the
    /// test: the test's issues are recorded when it ends, and a wait that can never finish ends it
    /// only at its wait limit.
    private func take(_ diagnostic: ResponseDiagnostic) -> Bool {
        let taken = state.withLock { state in
            guard !state.isFinished else { return false }
            state.diagnostics.append(diagnostic)
            return true
        }
        if taken, diagnostic.kind == .mainQueueBlocked || diagnostic.kind == .longWait {
            StandardError.writeLine(testName.map { "\(diagnostic) [in test \($0)]" } ?? diagnostic.description)
        }
        return taken
    }
}
