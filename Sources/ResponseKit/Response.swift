import Dispatch

/// The answer an interactor hands back *now* for work that finishes *later*.
///
/// An interactor creates a pending response, starts its work, and returns the response at once.
/// The work finishes the response through its ``Resolver``. The caller picks a style:
/// callbacks (``onCompletion(isolation:_:)``, ``onFailure(isolation:_:)``) or a blocking
/// future (``value``, ``error``, ``wait(timeout:)``), which is what deterministic tests use.
///
/// ```swift
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
/// // Callback style: runs on the main queue, exactly once.
/// LoadProfile().execute(userID: 7)
///     .onCompletion { profile in show(profile) }
///     .onFailure { error in showError(error) }
///
/// // Blocking style, as in a test: waits until done, then returns or throws.
/// let profile = try LoadProfile().execute(userID: 7).value
/// ```
///
/// ## Threading
/// - Every member is safe to call from any thread; `Response` is `Sendable`.
/// - Callbacks run on the response's ``ResponseExecutor``: ``ResponseExecutor/main`` unless the
///   producer picked another. Callbacks registered on one response run in registration order.
/// - A callback formed in `@MainActor` code is main-actor isolated and always runs on the main
///   queue, so a presenter can update its own state from it with no warning and no escape hatch.
/// - The first result wins; a second one is ignored and reported through
///   ``ResponseDiagnostics``.
// Safety of `@unchecked Sendable`: `status`, `upstream` and `extras` are read and written only
// while `word` is locked, with one exception: once the `delivered` flag is set (with release
// ordering, after `status` became final), `status` never changes again, so a reader who sees
// `delivered` with acquire ordering may read the result without the lock. The other stored
// properties are `let` and Sendable. The thread sanitizer checks this in CI.
public final class Response<Value: Sendable>: @unchecked Sendable {
    /// The producer's handle on a pending response. The same type as ``ResponseKit/Resolver``.
    public typealias Resolver = ResponseKit.Resolver<Value>

    /// Lock, flags and claims.
    @usableFromInline let word: ResponseWord
    @usableFromInline let creationLine: UInt32
    @usableFromInline @exclusivity(unchecked) var status: ResponseStatus<Value>
    /// The first response this one waits on and holds a claim on (composition).
    @usableFromInline @exclusivity(unchecked) var upstream: (any ClaimHolder)?
    @usableFromInline @exclusivity(unchecked) var extras: ResponseExtras<Value>?

    /// Where callbacks run.
    public let executor: ResponseExecutor

    /// The creation site's file name: a pointer to the static, NUL-terminated `#fileID` text.
    @usableFromInline let creationFile: UnsafeRawPointer?

    @inlinable
    init(status: ResponseStatus<Value>, executor: ResponseExecutor, file: StaticString, line: UInt) {
        switch status {
        case .pending: word = ResponseWord(flags: 0)
        case .done(.success), .delivering(.success):
            word = ResponseWord(flags: ResponseWord.done | ResponseWord.delivered)
        case .done(.failure), .delivering(.failure):
            word = ResponseWord(flags: ResponseWord.done | ResponseWord.delivered | ResponseWord.failed)
        }
        creationLine = UInt32(truncatingIfNeeded: line)
        self.status = status
        self.executor = executor
        creationFile = file.hasPointerRepresentation ? UnsafeRawPointer(file.utf8Start) : nil
    }

    deinit {
        // Only the flags on the common path: matching `status` in this unspecialised deinit
        // would cost generic-metadata lookups on every response.
        let flags = word.flags
        if flags & (ResponseWord.failed | ResponseWord.failureObserved | ResponseWord.cancelled)
            == ResponseWord.failed
        {
            switch status {
            case .done(.failure(let error)), .delivering(.failure(let error)): reportUnobserved(error)
            default: break
            }
        }
    }

    /// The file that created the response, as `#fileID` gave it.
    public var file: String {
        guard let creationFile else { return "?" }
        return String(cString: creationFile.assumingMemoryBound(to: CChar.self))
    }

    /// The line that created the response.
    public var line: UInt { UInt(creationLine) }

    // MARK: - Making responses

    /// Makes a pending response and the resolver that finishes it.
    ///
    /// Return the response to the caller at once; hand the resolver to the work.
    ///
    /// ```swift
    /// let (response, resolver) = Response<Int>.pending()
    /// DispatchQueue.global().async { resolver.succeed(42) }
    /// return response
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
        let response = Response(status: .pending(.empty), executor: executor, file: file, line: line)
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
    /// `body` is skipped when the response is cancelled before the queue gets to it.
    ///
    /// ```swift
    /// let response = Response<Int>(on: .global()) { try expensiveComputation() }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: the queue that runs `body`.
    ///   - executor: where callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: the work. Its return value succeeds the response; its error fails it.
    @inlinable
    public convenience init(
        on queue: DispatchQueue,
        executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () throws -> Value
    ) {
        self.init(status: .pending(.empty), executor: executor, file: file, line: line)
        let resolver = Resolver(self)
        queue.async {
            guard !resolver.isCancelled else { return }
            resolver.resolve(with: Result(catching: body))
        }
    }

    /// Makes a response that has already succeeded.
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
        Response(status: .done(.success(value)), executor: executor, file: file, line: line)
    }

    /// Makes a response that has already failed.
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
        Response(status: .done(.failure(error)), executor: executor, file: file, line: line)
    }

    // MARK: - State

    /// Whether the response has a result. Never blocks, never locks.
    @inlinable
    public var isDone: Bool {
        word.contains(ResponseWord.done)
    }

    /// Whether the response is done and succeeded. Never blocks.
    @inlinable
    public var isSuccessful: Bool {
        if case .success? = currentResult { return true }
        return false
    }

    /// Whether the response was cancelled through ``cancel()``. Never blocks, never locks.
    @inlinable
    public var isCancelled: Bool {
        word.contains(ResponseWord.cancelled)
    }

    /// The result if the response is done. Once every callback is delivered the status never
    /// changes again, so it is read without the lock; during delivery, with it.
    @inlinable
    var currentResult: Result<Value, any Error>? {
        let flags = word.flags
        if flags & ResponseWord.delivered != 0 {
            switch status {
            case .done(let result), .delivering(let result): return result
            case .pending: return nil  // unreachable: delivered implies a result
            }
        }
        guard flags & ResponseWord.done != 0 else { return nil }
        word.lock()
        defer { word.unlock() }
        switch status {
        case .pending: return nil
        case .delivering(let result), .done(let result): return result
        }
    }

    /// Records that someone looked at the outcome, so a failure is not reported as unobserved.
    @inlinable
    func markFailureObserved() {
        word.set(ResponseWord.failureObserved)
    }

    // MARK: - Cancelling

    /// Fails a pending response with `CancellationError` and tells the work, so that it can stop.
    ///
    /// The work hears about it through ``Resolver/isCancelled`` or ``Resolver/onCancel(_:)``.
    /// Failure callbacks receive the `CancellationError`. Cancelling a response that is already
    /// done does nothing.
    ///
    /// - Returns: `true` when this call cancelled the response, `false` when it was already done.
    @discardableResult
    public func cancel() -> Bool {
        complete(with: .failure(CancellationError()), cancelling: true)
    }

    // MARK: - Completing (used by Resolver)

    /// Completes the response; the first result wins.
    ///
    /// Decides under the lock, then runs cancellation handlers, releases claims and delivers
    /// callbacks outside it, so a callback that resolves another response never runs under a lock.
    @inlinable
    @discardableResult
    func complete(
        with result: Result<Value, any Error>,
        cancelling: Bool = false,
        reportingDuplicate: Bool = true,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        word.lock()
        guard case .pending(let callbacks) = status else {
            word.unlock()
            if reportingDuplicate, !cancelling { reportDuplicate(of: result, file: file, line: line) }
            return false
        }
        status = .delivering(result)
        var flags = ResponseWord.done
        if case .failure = result { flags |= ResponseWord.failed }
        if cancelling { flags |= ResponseWord.cancelled }
        if callbacks.observesFailure { flags |= ResponseWord.failureObserved }
        word.set(flags)
        let upstream = self.upstream
        let extras = self.extras
        if upstream != nil || extras != nil {
            self.upstream = nil
            self.extras = nil
        }
        word.unlock()
        if CompletionDepth.enter() {
            finishCompletion(result, callbacks, upstream: upstream, extras: extras, cancelling: cancelling)
            CompletionDepth.exit()
        } else {
            // Too deep (a long chain finishing inline): finish once the outer completions return,
            // so the stack stays flat however long the chain.
            CompletionDepth.deferWork {
                self.finishCompletion(result, callbacks, upstream: upstream, extras: extras, cancelling: cancelling)
            }
        }
        return true
    }

    /// After the lock: tell the work it was cancelled, release claims, deliver the callbacks, then
    /// any registered meanwhile, in order, and only then mark the response delivered.
    @inlinable
    func finishCompletion(
        _ result: Result<Value, any Error>,
        _ callbacks: CallbackList<Value>,
        upstream: (any ClaimHolder)?,
        extras: ResponseExtras<Value>?,
        cancelling: Bool
    ) {
        if upstream != nil || extras != nil {
            Self.finishLinks(upstream: upstream, extras: extras, cancelling: cancelling)
        }
        var batch = callbacks
        while true {
            switch batch {
            case .empty: break
            case .one(let callback): deliver(result, to: callback)
            case .many(let callbacks): for callback in callbacks { deliver(result, to: callback) }
            }
            // The common case, nobody registered meanwhile: one compare-and-swap, no lock. The
            // status stays `.delivering`, which readers treat as done once `delivered` is set.
            if word.trySetDelivered() { return }
            word.lock()
            if let extras = self.extras, !extras.late.isEmpty {
                batch = extras.late
                extras.late = .empty
                word.clear(ResponseWord.lateRegistered)
                word.unlock()
                continue
            }
            word.set(ResponseWord.delivered)
            word.unlock()
            return
        }
    }

    /// Registers `callback`, or delivers it at once when the response is done.
    @inlinable
    func register(_ callback: ResponseCallback<Value>) {
        if callback.observesFailure { markFailureObserved() }
        if word.contains(ResponseWord.delivered) {
            switch status {
            case .done(let result), .delivering(let result):
                deliver(result, to: callback)
                return
            case .pending:
                break  // unreachable: delivered implies a result
            }
        }
        word.lock()
        switch status {
        case .pending(var callbacks):
            status = .pending(.empty)  // drop our reference so the append does not copy
            callbacks.append(callback)
            status = .pending(callbacks)
            word.unlock()
        case .delivering(let result):
            if word.contains(ResponseWord.delivered) {
                word.unlock()
                deliver(result, to: callback)
                return
            }
            extrasLocked().late.append(callback)
            word.set(ResponseWord.lateRegistered)
            word.unlock()
        case .done(let result):
            word.unlock()
            deliver(result, to: callback)
        }
    }

    @inlinable
    func deliver(_ result: Result<Value, any Error>, to callback: ResponseCallback<Value>) {
        guard callback.accepts(result) else { return }
        switch callback {
        case .inline, .waiter:
            callback.invoke(result)
            return
        case .success, .failure, .result:
            break
        }
        switch executor.kind {
        case .immediate:
            callback.invoke(result)
        case .main:
            DispatchQueue.main.async { callback.invoke(result) }
        case .queue(let queue):
            queue.async { callback.invoke(result) }
        case .custom(let custom):
            custom.executor.execute { callback.invoke(result) }
        }
    }

    /// Runs the work's cancellation handlers and releases the claims of a response that just finished.
    @usableFromInline
    static func finishLinks(upstream: (any ClaimHolder)?, extras: ResponseExtras<Value>?, cancelling: Bool) {
        if cancelling, let extras {
            for handler in extras.cancellationHandlers { handler() }
        }
        upstream?.releaseClaim()
        if let extras {
            for upstream in extras.upstreams { upstream.releaseClaim() }
        }
    }

    /// Reports a result that arrived after the response was done, unless the first was a cancellation.
    @usableFromInline
    func reportDuplicate(of second: Result<Value, any Error>, file: StaticString, line: UInt) {
        guard let first = currentResult, !Self.isCancellation(first) else { return }
        ResponseDiagnostics.report(
            .resolvedTwice,
            "\(Self.self) created at \(self.file):\(self.line) was resolved again at \(file):\(line); "
                + "the first result (\(Self.summary(of: first))) stands",
            file: self.file,
            line: self.line
        )
    }

    @usableFromInline
    func reportUnobserved(_ error: any Error) {
        guard !(error is CancellationError) else { return }
        ResponseDiagnostics.report(
            .unobservedFailure,
            "\(Self.self) created at \(file):\(line) failed with \(error) and was released "
                + "without anyone observing the failure (no onFailure, always, blocking read or await)",
            file: file,
            line: line
        )
    }

    static func isCancellation(_ result: Result<Value, any Error>) -> Bool {
        if case .failure(let error) = result, error is CancellationError { return true }
        return false
    }

    static func summary(of result: Result<Value, any Error>) -> String {
        switch result {
        case .success(let value): "succeeded with \(value)"
        case .failure(let error): "failed with \(error)"
        }
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
}
