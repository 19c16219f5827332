import CResponseKit

extension Response {
    /// Succeeds with every value, in the order of `responses`, once all have succeeded; fails with
    /// the first failure, and then cancels the others (unless something else still waits on them).
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where its inputs run.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func fetchAvatar(_ user: String) -> Response<Data> { Response(on: .global()) { Data(user.utf8) } }
    /// let users = ["ada", "grace"]
    ///
    /// let avatars: Response<[Data]> = Response.all(users.map { fetchAvatar($0) })
    /// ```
    ///
    /// An empty collection succeeds at once with an empty array. Its progress
    /// (``Response/onProgress(_:)``) is the mean of the inputs' progress, a finished input
    /// counting as done; the inputs' progress is followed only once someone observes it.
    ///
    /// - Parameters:
    ///   - responses: the responses to wait for.
    ///   - executor: where the combined response delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with all the values.
    /// - Complexity: O(*n*) for *n* responses.
    @inlinable
    public static func all<Element: Sendable>(
        _ responses: some Collection<Response<Element>>,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> where Value == [Element] {
        let collected = Collector<Element>(count: responses.count)
        let inputs = Array(responses)
        let combined = combining(inputs, on: executor, file: file, line: line, whenEmpty: .success([])) {
            index, combined in
            .observer { result, completion in
                switch result {
                case .success(let value):
                    if let values = collected.store(value, at: index) {
                        combined.finishNested(with: .success(values), in: &completion)
                    }
                case .failure(let error):
                    combined.finishNested(with: .failure(error), in: &completion)
                }
            }
        }
        combined.followProgress(of: inputs)
        return combined
    }

    /// Finishes as the first of `responses` to finish, success or failure, and then cancels the
    /// others (unless something else still waits on them).
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where its inputs run.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func fetch(fromMirror mirror: String) -> Response<String> { Response(on: .global()) { "page from \(mirror)" } }
    ///
    /// let page = Response.race([fetch(fromMirror: "eu"), fetch(fromMirror: "us")])
    /// ```
    ///
    /// - Parameters:
    ///   - responses: the competitors. None fails the result with ``ResponseError/noResponses``.
    ///   - executor: where the result delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with the first outcome.
    public static func race(
        _ responses: some Collection<Response<Value>>,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        combining(
            Array(responses), on: executor, file: file, line: line, whenEmpty: .failure(ResponseError.noResponses)
        ) {
            _, combined in
            .observer { result, completion in combined.finishNested(with: result, in: &completion) }
        }
    }

    /// Succeeds with the first of `responses` to succeed, and then cancels the others (unless
    /// something else still waits on them). Fails only when all fail, with
    /// ``ResponseAggregateError`` listing their errors in the order of `responses`.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where its inputs run.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func loadConfig(from place: String) -> Response<String> { Response(on: .global()) { "config from \(place)" } }
    ///
    /// let config = Response.any([loadConfig(from: "disk"), loadConfig(from: "server")])
    /// ```
    ///
    /// - Parameters:
    ///   - responses: the candidates. None fails the result with ``ResponseError/noResponses``.
    ///   - executor: where the result delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with the first value.
    public static func any(
        _ responses: some Collection<Response<Value>>,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        let failures = Collector<any Error>(count: responses.count)
        return combining(
            Array(responses), on: executor, file: file, line: line, whenEmpty: .failure(ResponseError.noResponses)
        ) {
            index, combined in
            .observer { result, completion in
                switch result {
                case .success:
                    combined.finishNested(with: result, in: &completion)
                case .failure(let error):
                    if let errors = failures.store(error, at: index) {
                        combined.finishNested(
                            with: .failure(ResponseAggregateError(errors: errors)), in: &completion)
                    }
                }
            }
        }
    }

    /// ``all(_:on:file:line:)`` for responses listed one by one: `Response.all(a, b, c)`.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where its inputs run.
    ///
    /// - Parameters:
    ///   - first: the first response.
    ///   - rest: the others.
    ///   - executor: where the combined response delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with all the values, in order.
    public static func all<Element: Sendable>(
        _ first: Response<Element>,
        _ rest: Response<Element>...,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> where Value == [Element] {
        all([first] + rest, on: executor, file: file, line: line)
    }

    /// ``race(_:on:file:line:)`` for responses listed one by one: `Response.race(a, b)`.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where its inputs run.
    ///
    /// - Parameters:
    ///   - first: the first competitor.
    ///   - rest: the others.
    ///   - executor: where the result delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with the first outcome.
    public static func race(
        _ first: Response<Value>,
        _ rest: Response<Value>...,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        race([first] + rest, on: executor, file: file, line: line)
    }

    /// ``any(_:on:file:line:)`` for responses listed one by one: `Response.any(a, b)`.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where its inputs run.
    ///
    /// - Parameters:
    ///   - first: the first candidate.
    ///   - rest: the others.
    ///   - executor: where the result delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with the first value.
    public static func any(
        _ first: Response<Value>,
        _ rest: Response<Value>...,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        any([first] + rest, on: executor, file: file, line: line)
    }

    /// The shape every combinator shares: a pending response that holds a claim on each input
    /// (so finishing or cancelling it releases them), one observer per input made by `observer`,
    /// and `whenEmpty` at once when there are no inputs.
    @inlinable
    static func combining<Input: Sendable>(
        _ inputs: [Response<Input>],
        on executor: ResponseExecutor,
        file: StaticString,
        line: UInt,
        whenEmpty: Result<Value, any Error>,
        _ observer: (Int, Response<Value>) -> ResponseCallback<Input>
    ) -> Response<Value> {
        let combined = Response(pendingOn: executor, file: file, line: line)
        guard !inputs.isEmpty else {
            combined.finish(with: whenEmpty, how: .racing)
            return combined
        }
        // Every claim at once, before the combined response is shared: one array.
        for input in inputs { input.addClaim() }
        combined.beforeSharing { $0.makeExtras().upstreams = inputs }
        for (index, input) in inputs.enumerated() { input.addInternalObserver(observer(index, combined)) }
        return combined
    }
}

/// Values arriving out of order, from any thread, into their slots; complete once every slot
/// is filled.
///
/// Safety of `@unchecked Sendable`: `slots` and `missing` are read and written only in `store`,
/// inside `StateWordLock.withLock` on `word` (C11 atomics, which the thread sanitizer sees).
/// `word` is the first stored property, so it sits where `_getUnsafePointerToStoredProperties`
/// points, and is touched only through those functions.
@usableFromInline
final class Collector<Element: Sendable>: @unchecked Sendable {
    @usableFromInline var word = rk_word_make(0)
    // Unchecked exclusivity: the lock serialises every access, so the runtime's dynamic check
    // (two calls per access) would only repeat what it proves (Benchmarks/README.md, "What the engine's shape saves").
    @usableFromInline @exclusivity(unchecked) var slots: [Element?]
    @usableFromInline @exclusivity(unchecked) var missing: Int

    @inlinable
    init(count: Int) {
        slots = Array(repeating: nil, count: count)
        missing = count
    }

    /// Stores `element`; returns all elements, in order, when it was the last one missing.
    @inlinable
    func store(_ element: Element, at index: Int) -> [Element]? {
        let word = _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: rk_word.self)
        return StateWordLock.withLock(word) {
            guard slots[index] == nil else { return nil }
            slots[index] = element
            missing -= 1
            return missing == 0 ? slots.map { $0! } : nil
        }
    }
}
/// The failure of ``Response/any(_:on:file:line:)`` when every response failed.
public struct ResponseAggregateError: Error, CustomStringConvertible {
    /// Each response's error, in the order the responses were given.
    public let errors: [any Error]

    /// Lists the errors.
    public var description: String {
        "all \(errors.count) responses failed: " + errors.map { "\($0)" }.joined(separator: "; ")
    }
}
