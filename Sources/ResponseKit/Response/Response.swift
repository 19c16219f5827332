import CResponseKit
import Dispatch

/// The answer an interactor hands back *now* for work that finishes *later*.
///
/// An interactor creates a pending response, starts its work, and returns the response at once.
/// The work finishes the response through its ``Resolver``. The caller picks a style: callbacks
/// (``onCompletion(_:)``, ``onFailure(_:)``, or ``mainActor`` for a presenter) or a blocking
/// future (``value``, ``error``, ``wait(timeout:)``), which is what deterministic tests use.
///
/// <!-- example: fragment -->
/// ```swift
/// struct Profile: Sendable { let id: Int }
///
/// final class LoadProfile {
///     func execute(userID: Int) -> Response<Profile> {
///         let (response, resolver) = Response<Profile>.pending()
///         DispatchQueue.global().async {
///             if resolver.isCancelled { return }
///             resolver.succeed(Profile(id: userID))
///         }
///         return response
///     }
/// }
///
/// // Callback style, from a @MainActor presenter: runs on the main actor, exactly once.
/// @MainActor final class ProfilePresenter {
///     var text = ""
///     func load() {
///         LoadProfile().execute(userID: 7).mainActor
///             .onCompletion { profile in self.text = "profile \(profile.id)" }
///             .onFailure { error in self.text = "\(error)" }
///     }
/// }
///
/// // Blocking style, as in a test: waits until done, then returns or throws.
/// let profile = try LoadProfile().execute(userID: 7).value
/// ```
///
/// ## Threading
/// - Every member is safe to call from any thread; `Response` is `Sendable`.
/// - Callbacks run on the response's ``executor``: ``ResponseExecutor/main`` unless the producer
///   picked another. Callbacks registered on one response run in registration order.
/// - Callbacks must be `@Sendable`, because they may run on another thread: the compiler rejects
///   a callback that captures unprotected mutable state. `@MainActor` code observes through
///   ``mainActor``, whose callbacks run on the main actor and may use its state.
/// - The first result wins; a second one is ignored and reported through ``ResponseDiagnostics``.
///   So is a response whose last resolver is released before it is resolved: it fails with
///   ``ResponseError/abandoned``, so nobody waits forever.
///
/// See <doc:Threading> for where transformations run and what a blocking read does on the main
/// thread.
// Safety of `@unchecked Sendable`. The mutable stored properties are `stateWord` and
// `lockedMachine`; the others are `let` (two integers, a pointer to immutable static text).
// - `stateWord` is accessed only through C11 atomic operations (CResponseKit.h), by address.
// - `lockedMachine` is named only here (the initialisers, which run before anyone else has the
//   response; the deinit, which runs after everyone let go) and in ResponseStorage.swift, which
//   touches it in three places only (`.ci/check-machine-access` fails CI on any other):
//   1. `read` and `apply`, which hold the lock (`StateWordLock`) for the whole access (`read`
//      hands the machine out immutable: every change is an `apply`);
//   2. `beforeSharing`, for a response its maker has just made and not yet handed to anyone
//      (a tracked response, which `ResponseTracking` holds from its creation, takes the lock);
//   3. `deliveredResult`, without the lock, only after an acquire load saw `delivered`. That flag
//      is set, with release ordering, in exactly two ways, each after the machine's last write:
//      by the unlock that ends a transition into `.done`, and by the completing thread's
//      `rk_set_if_unlocked_and_clear`, which succeeds only while nobody holds the lock and no
//      callback joined the delivery, leaving the machine `.delivering`. No transition writes a
//      `.done` machine or a `.delivering` one whose flags say `delivered`: every transition is
//      given the flags under the lock and returns without writing in those cases
//      (ResponseStateMachine.swift). So that read never overlaps a write.
// The thread sanitizer, which sees these atomics and the lock, checks this in CI.
public final class Response<Value: Sendable>: @unchecked Sendable {
    /// The producer's handle on a pending response. The same type as ``ResponseKit/Resolver``.
    public typealias Resolver = ResponseKit.Resolver<Value>

    // The stored properties' order is the layout `ResponseLayout` describes: change them together.

    /// The response's life; only under the lock (see `read` and `apply`).
    @usableFromInline @exclusivity(unchecked) var lockedMachine: ResponseStateMachine<Value>
    /// The executor's kind (`ResponseLayout.ExecutorKind`) in the low 2 bits, the creation line's
    /// bits 16 to 21 above.
    @usableFromInline let executorKindAndLineHigh: UInt8
    /// The creation line's low 16 bits.
    @usableFromInline let creationLineLow: UInt16
    /// Lock, flags and claim count, through C11 atomics only, by address (see `word`).
    @usableFromInline var stateWord: rk_word
    /// The creation site's file name: a pointer to the static, NUL-terminated `#fileID` text.
    @usableFromInline let creationFile: UnsafeRawPointer?

    @inlinable
    convenience init(
        state: ResponseStateMachine<Value>.State,
        flags: UInt32,
        executor: ResponseExecutor,
        file: StaticString,
        line: UInt
    ) {
        switch executor.kind {
        case .main:
            self.init(
                state: state, flags: flags, kind: ResponseLayout.ExecutorKind.main, link: nil, file: file, line: line)
        case .immediate:
            self.init(
                state: state,
                flags: flags,
                kind: ResponseLayout.ExecutorKind.immediate,
                link: nil,
                file: file,
                line: line
            )
        case .queue, .custom:
            self.init(
                state: state,
                flags: flags,
                kind: ResponseLayout.ExecutorKind.elsewhere,
                link: ResponseExtras(executor: executor),
                file: file,
                line: line
            )
        }
    }

    /// - Parameters:
    ///   - kind: the executor's kind (`ResponseLayout.ExecutorKind`).
    ///   - link: the machine's link (``ResponseStateMachine/link``): the extras, which hold the
    ///     executor when `kind` is `elsewhere`; or the one response this one holds a claim on (a
    ///     derived response); or `nil`.
    @inlinable
    init(
        state: ResponseStateMachine<Value>.State,
        flags: UInt32,
        kind: UInt8,
        link: AnyObject?,
        file: StaticString,
        line: UInt
    ) {
        lockedMachine = ResponseStateMachine(state: state, link: link)
        let recordedLine = line <= ResponseLayout.maximumLine ? line : 0
        executorKindAndLineHigh = kind | UInt8(truncatingIfNeeded: recordedLine >> 16) << 2
        creationLineLow = UInt16(truncatingIfNeeded: recordedLine)
        let isTracked = rk_tracking_enabled() && flags & ResponseFlags.done == 0
        stateWord = rk_word_make(isTracked ? flags | ResponseFlags.tracked : flags)
        creationFile = file.hasPointerRepresentation ? UnsafeRawPointer(file.utf8Start) : nil
        assert(isLaidOutAsAssumed(), "ResponseKit: the response's layout is not what ResponseLayout computes")
        if isTracked { ResponseTracking.track(self) }
        // One relaxed load while no test checks responses: nothing else, no allocation.
        if rk_check_scopes_are_running() { ResponseCheckScopeTable.adopt(self, linkedTo: link) }
    }

    /// Debug builds, in every initialiser: whether the two addresses the engine computes without
    /// the compiler's help are where the compiler really put the fields, for this `Value` on this
    /// platform. `ResponseLayout.word(of:)` must be `stateWord` (the lock and flags, reached by
    /// unspecialised code), and the stored properties must start with `machine` (the lock-free
    /// read of a delivered result, `ResponseLayout.state(of:)`).
    @usableFromInline
    func isLaidOutAsAssumed() -> Bool {
        let start = _getUnsafePointerToStoredProperties(self)
        let machineAddress = withUnsafeMutablePointer(to: &lockedMachine) { UnsafeMutableRawPointer($0) }
        let wordAddress = withUnsafeMutablePointer(to: &stateWord) { UnsafeMutableRawPointer($0) }
        return machineAddress == start && wordAddress == UnsafeMutableRawPointer(word)
    }

    /// A pending response derived from `source`: its callbacks run where `source`'s run (the
    /// executor's bits are copied, without making the executor, unless it lives in the extras),
    /// and it links `source` as the response it holds a claim on, set before anyone can see it.
    @inlinable @inline(__always)
    convenience init<Source>(derivedFrom source: Response<Source>, file: StaticString, line: UInt) {
        let kind = source.executorKindAndLineHigh & ResponseLayout.ExecutorKind.mask
        if kind == ResponseLayout.ExecutorKind.elsewhere {
            self.init(pendingOn: source.executor, file: file, line: line)
            beforeSharing { $0.setUpstreamBeforeSharing(ResponseUpstream(source)) }
        } else {
            // Linked in the initialiser: set afterwards, the link cost a retain, a release and the
            // release of the `nil` it replaced, per step of a chain.
            self.init(state: .pending(.empty), flags: 0, kind: kind, link: source, file: file, line: line)
        }
    }

    /// A pending response with no resolver of the user's: composition resolves it.
    @inlinable
    convenience init(pendingOn executor: ResponseExecutor, file: StaticString, line: UInt) {
        self.init(state: .pending(.empty), flags: 0, executor: executor, file: file, line: line)
    }

    /// A response that has its result already.
    @inlinable
    convenience init(
        finished result: Result<Value, any Error>,
        executor: ResponseExecutor,
        file: StaticString,
        line: UInt
    ) {
        var flags = ResponseFlags.done | ResponseFlags.delivered
        if case .failure = result { flags |= ResponseFlags.failed }
        self.init(state: .done(ResponseOutcome(result)), flags: flags, executor: executor, file: file, line: line)
    }

    deinit {
        // Only the flags on the common path: the unspecialised deinit reads them without the value
        // type's metadata; the result is looked at only for a failure nobody observed.
        let flags = rk_load_acquire(word)
        // The success value is the one thing in the machine the compiler does not destroy (see
        // ResponseOutcome): destroyed here, through `Value`'s metadata, which needs no lookup.
        if flags & (ResponseFlags.done | ResponseFlags.failed) == ResponseFlags.done {
            lockedMachine.successValue?.destroy(as: Value.self)
        }
        let quiet = ResponseFlags.failureObserved | ResponseFlags.cancelled | ResponseFlags.abandoned
        if flags & (ResponseFlags.failed | quiet) == ResponseFlags.failed { reportUnobservedFailure() }
        if flags & (ResponseFlags.tracked | ResponseFlags.done) == ResponseFlags.tracked {
            ResponseTracking.untrack(ObjectIdentifier(self))
        }
        if flags & ResponseFlags.checked != 0 { ResponseCheckScopeTable.forget(ObjectIdentifier(self)) }
    }

    /// The deinit's rare path, out of line: types used in a function body have their metadata
    /// looked up on entry, and in the unspecialised deinit each lookup is a generic-metadata
    /// cache search, on every response's release (Benchmarks/README.md, "What the engine's shape saves").
    @inline(never)
    func reportUnobservedFailure() {
        if case .failure(let error)? = lockedMachine.result { reportUnobserved(error) }
    }

    /// The file that created the response, as `#fileID` gave it.
    public var file: String {
        guard let creationFile else { return "?" }
        return String(cString: creationFile.assumingMemoryBound(to: CChar.self))
    }

    /// The line that created the response (0 past line 4,194,303 of a file).
    public var line: UInt { UInt(executorKindAndLineHigh >> 2) << 16 | UInt(creationLineLow) }

    /// Where callbacks run: ``ResponseExecutor/main`` unless the producer picked another.
    @inlinable
    public var executor: ResponseExecutor {
        // The main queue and inline are told by the response's own bits, without the lock. Any
        // other executor lives in the extras, read under the lock: the machine is one variable, so
        // a read of it while another thread's transition modifies it would be a data race even
        // where the bytes differ (the thread sanitizer says so).
        switch executorKindAndLineHigh & ResponseLayout.ExecutorKind.mask {
        case ResponseLayout.ExecutorKind.main: .main
        case ResponseLayout.ExecutorKind.immediate: .immediate
        default: read { machine in machine.elsewhereExecutor }
        }
    }

    /// Whether callbacks run inline (``ResponseExecutor/immediate``): the response's own bits,
    /// without making the executor.
    @inlinable @inline(__always)
    var runsCallbacksInline: Bool {
        executorKindAndLineHigh & ResponseLayout.ExecutorKind.mask == ResponseLayout.ExecutorKind.immediate
    }

    // MARK: - Making responses

    /// Makes a pending response and the resolver that finishes it.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the work runs.
    ///
    /// Return the response to the caller at once; hand the resolver to the work. When the last
    /// copy of the resolver is released before the response is resolved, the response fails with
    /// ``ResponseError/abandoned`` and the diagnostics hook says so, so nobody waits forever.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func answer() -> Response<Int> {
    ///     let (response, resolver) = Response<Int>.pending()
    ///     DispatchQueue.global().async { resolver.succeed(42) }
    ///     return response
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    /// - Returns: the pending response and its resolver.
    @inlinable
    public static func pending(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (response: Response<Value>, resolver: Resolver) {
        let response = Response(pendingOn: executor, file: file, line: line)
        return (response, Resolver(response))
    }

    /// Makes a pending response whose callbacks go through an executor of your own, such as
    /// `ManualExecutor` in tests: `Response<Int>.pending(on: manual)`.
    ///
    /// - Parameters:
    ///   - executor: runs each callback delivery; see ``ResponseExecutor/custom(_:)``.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    /// - Returns: the pending response and its resolver.
    public static func pending(
        on executor: some CallbackExecutor,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> (response: Response<Value>, resolver: Resolver) {
        pending(on: ResponseExecutor.custom(executor), file: file, line: line)
    }

    /// Makes a response whose work runs asynchronously on `queue`.
    ///
    /// `on:` is the queue that runs `body`; the response's callbacks go through `executor`
    /// (``ResponseExecutor/main`` by default).
    ///
    /// `body` is skipped when the response is cancelled before the queue gets to it. Work for
    /// `DispatchQueue.main` goes through ResponseKit's own main-queue jobs, so a blocking read on
    /// the main thread still runs it.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// let hostname = Response<Data>(on: .global()) { try Data(contentsOf: URL(fileURLWithPath: "/etc/hostname")) }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: the queue that runs `body`.
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: the work. Its return value succeeds the response; its error fails it.
    /// - Note: In a target with main-actor isolation by default (Xcode 26), what `body` calls must
    ///   be `nonisolated`, as gateways and interactors are: see <doc:MainActorByDefault>.
    @inlinable
    public convenience init(
        on queue: DispatchQueue,
        executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () throws -> Value
    ) {
        self.init(pendingOn: executor, file: file, line: line)
        // No resolver (see `ResponseBodyJob`).
        if let destination = DispatchJobs.destination(for: queue) {
            DispatchJobs.send(ResponseBodyJob(response: self, body: body), to: destination)
            return
        }
        // The main queue (ResponseKit's own main-queue jobs), or a Dispatch whose queues
        // `DispatchJobs` cannot reach.
        ResponseExecutor.queue(queue).run { [self] in
            guard !isCancelled else { return }
            finish(with: Result(catching: body), how: .racing)
        }
    }

    /// Makes a response that has already succeeded.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default).
    ///
    /// - Parameters:
    ///   - value: the value.
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site. Leave the default.
    ///   - line: the creation site. Leave the default.
    /// - Returns: a done, successful response.
    @inlinable
    public static func succeeded(
        _ value: Value,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        Response(finished: .success(value), executor: executor, file: file, line: line)
    }

    /// Makes a response that has already failed.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default).
    ///
    /// - Parameters:
    ///   - error: the failure.
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site. Leave the default.
    ///   - line: the creation site. Leave the default.
    /// - Returns: a done, failed response.
    @inlinable
    public static func failed(
        _ error: any Error,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        Response(finished: .failure(error), executor: executor, file: file, line: line)
    }

    // MARK: - State

    /// Whether the response has a result. Never blocks, never locks.
    @inlinable
    public var isDone: Bool {
        flags & ResponseFlags.done != 0
    }

    /// Whether the response is done and succeeded. Never blocks.
    @inlinable
    public var isSuccessful: Bool {
        flags & (ResponseFlags.done | ResponseFlags.failed) == ResponseFlags.done
    }

    /// Whether the response was cancelled through ``cancel()``. Never blocks, never locks.
    @inlinable
    public var isCancelled: Bool {
        flags & ResponseFlags.cancelled != 0
    }

    /// Records that someone looked at the outcome, so a failure is not reported as unobserved.
    @inlinable
    func markFailureObserved() {
        if flags & ResponseFlags.failureObserved == 0 { setFlags(ResponseFlags.failureObserved) }
    }

    /// Counts a failure as observed without waiting for the response: for ResponseKitServices,
    /// which reports its steps' failures itself. (A callback that does nothing would do it too,
    /// but a callback waits for the response, so no consumer's cancellation would reach it.)
    package func countFailureAsObserved() {
        markFailureObserved()
    }

    // MARK: - Cancelling

    /// Fails a pending response with `CancellationError` and tells the work, so that it can stop.
    ///
    /// The work hears about it through ``Resolver/isCancelled`` or ``Resolver/onCancel(_:)``.
    /// Failure callbacks receive the `CancellationError`. Cancelling a response that is already
    /// done does nothing.
    ///
    /// Cancels this response at once, whoever else waits for it. Cancelling a response *derived*
    /// from another (`map`, `timeout`, ...) reaches that other response only when nobody else
    /// waits for it: see <doc:Threading#Who-waits-for-a-response>.
    ///
    /// - Returns: `true` when this call cancelled the response, `false` when it was already done.
    @discardableResult
    public func cancel() -> Bool {
        finish(with: .failure(CancellationError()), how: .cancelling)
    }
}

extension Response where Value == Void {
    /// Makes a `Response<Void>` that has already succeeded: `.succeeded()` rather than
    /// `.succeeded(())`, as ``Resolver/succeed(file:line:)`` is to `succeed(())`.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default).
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func start() -> Response<Void> { .succeeded() }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site. Leave the default.
    ///   - line: the creation site. Leave the default.
    /// - Returns: a done, successful response.
    @inlinable
    public static func succeeded(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Void> {
        Response(finished: .success(()), executor: executor, file: file, line: line)
    }
}

extension Response: CustomStringConvertible, CustomDebugStringConvertible {
    /// The state and creation site, as in `Response<Int>(pending, created at App/Login.swift:12)`.
    public var description: String {
        let stateText = currentResult.map { Self.summary(of: $0) } ?? "pending"
        return "\(Self.self)(\(stateText), created at \(file):\(line))"
    }

    /// ``description`` plus the executor.
    public var debugDescription: String {
        "\(description.dropLast()), executor: \(executor))"
    }

    static func summary(of result: Result<Value, any Error>) -> String {
        switch result {
        case .success(let value): "succeeded with \(value)"
        case .failure(let error): "failed with \(error)"
        }
    }
}
