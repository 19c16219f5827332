extension Response {
    /// Succeeds with every value, in the order of `responses`, once all have succeeded; fails with
    /// the first failure, and then cancels the others (unless something else still waits on them).
    ///
    /// ```swift
    /// let avatars: Response<[Image]> = Response.all(users.map { fetchAvatar($0) })
    /// ```
    ///
    /// An empty collection succeeds at once with an empty array.
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
        return combining(Array(responses), on: executor, file: file, line: line, whenEmpty: .success([])) {
            index, input, resolver in
            input.observe { result in
                switch result {
                case .success(let value):
                    if let values = collected.store(value, at: index) {
                        resolver.resolveIfPending(with: .success(values))
                    }
                case .failure(let error):
                    resolver.resolveIfPending(with: .failure(error))
                }
            }
        }
    }

    /// Finishes as the first of `responses` to finish, success or failure, and then cancels the
    /// others (unless something else still waits on them).
    ///
    /// ```swift
    /// let page = Response.race([fetch(fromMirror: a), fetch(fromMirror: b)])
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
        combining(Array(responses), on: executor, file: file, line: line, whenEmpty: .failure(ResponseError.noResponses)) {
            _, input, resolver in
            input.observe { resolver.resolveIfPending(with: $0) }
        }
    }

    /// Succeeds with the first of `responses` to succeed, and then cancels the others (unless
    /// something else still waits on them). Fails only when all fail, with
    /// ``ResponseAggregateError`` listing their errors in the order of `responses`.
    ///
    /// ```swift
    /// let config = Response.any([loadConfig(fromDisk: path), loadConfig(fromServer: url)])
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
        return combining(Array(responses), on: executor, file: file, line: line, whenEmpty: .failure(ResponseError.noResponses)) {
            index, input, resolver in
            input.observe { result in
                switch result {
                case .success:
                    resolver.resolveIfPending(with: result)
                case .failure(let error):
                    if let errors = failures.store(error, at: index) {
                        resolver.resolveIfPending(with: .failure(ResponseAggregateError(errors: errors)))
                    }
                }
            }
        }
    }

    /// ``all(_:on:file:line:)`` for responses listed one by one: `Response.all(a, b, c)`.
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
    /// (so finishing or cancelling it releases them), one observer per input set up by
    /// `observeInput`, and `whenEmpty` at once when there are no inputs.
    @inlinable
    static func combining<Input: Sendable>(
        _ inputs: [Response<Input>],
        on executor: ResponseExecutor,
        file: StaticString,
        line: UInt,
        whenEmpty: Result<Value, any Error>,
        _ observeInput: (Int, Response<Input>, ResponseKit.Resolver<Value>) -> Void
    ) -> Response<Value> {
        let (combined, resolver) = pending(on: executor, file: file, line: line)
        guard !inputs.isEmpty else {
            resolver.resolve(with: whenEmpty)
            return combined
        }
        for input in inputs { input.link(combined) }
        for (index, input) in inputs.enumerated() { observeInput(index, input, resolver) }
        return combined
    }
}

/// Values arriving out of order, from any thread, into their slots; complete once every slot
/// is filled.
///
/// Safety of `@unchecked Sendable`: `slots` and `missing` are read and written only while `word`
/// is locked (the same atomic lock a response uses, which the thread sanitizer sees).
@usableFromInline
final class Collector<Element: Sendable>: @unchecked Sendable {
    @usableFromInline let word = ResponseWord(flags: 0)
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
        word.lock()
        guard slots[index] == nil else {
            word.unlock()
            return nil
        }
        slots[index] = element
        missing -= 1
        let values = missing == 0 ? slots.map { $0! } : nil
        word.unlock()
        return values
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
