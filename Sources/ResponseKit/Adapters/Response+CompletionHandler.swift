// `Response.wrap`: one line turns a call that takes a completion handler into a response, for the
// handler shapes `(Value?, Error?)`, `(Result<Value, Failure>)`, `(Value)` and, for a
// `Response<Void>`, `(Error?)`. Each shape comes twice: for a call that returns nothing, and for one
// that returns a ``ResponseCancellable`` which cancelling the response reaches.

extension Response {
    /// Makes a response from a call that reports through a `(value, error)` completion handler.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the call runs.
    ///
    /// `body` runs at once, on the calling thread, and hands `handler` to the call. The handler's
    /// first call finishes the response: an error fails it, else a value succeeds it, and neither
    /// (`handler(nil, nil)`) fails it with ``ResponseError/neitherValueNorError``. A later call
    /// is reported through ``ResponseDiagnostics`` (``ResponseDiagnostic/Kind/resolvedTwice``,
    /// naming this call's site) and changes nothing. A call that drops the handler without
    /// calling it leaves nobody to finish the response, which then fails with
    /// ``ResponseError/abandoned``. An error `body` throws fails the response.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct UserState: Sendable { let name: String }
    /// struct AuthAPI {   // an SDK's API, with a completion handler
    ///     func signIn(_ user: String, completion: @escaping @Sendable (UserState?, (any Error)?) -> Void) {
    ///         completion(UserState(name: user), nil)
    ///     }
    /// }
    ///
    /// func signIn(_ user: String, with api: AuthAPI) -> Response<UserState> {
    ///     .wrap { handler in api.signIn(user, completion: handler) }
    /// }
    /// ```
    ///
    /// When the call returns something that can stop it (a `URLSessionTask`, a `Task`), return
    /// it from `body` (see ``wrap(on:file:line:_:)-(_,_,_,((Value?,(Error)?)->Void)->ResponseCancellable)``),
    /// and cancelling the response cancels the call.
    ///
    /// - Note: Name the value type (`Response<UserState>.wrap`, or a return type as above):
    ///   inferred, a `(Result<T, Error>) -> Void` handler would be taken for a handler of one
    ///   value, of type `Result<T, Error>`.
    ///
    /// - Parameters:
    ///   - executor: where the response's callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: starts the call, handing it `handler`. The handler may be called from any thread.
    /// - Returns: a response that finishes when the handler is first called.
    public static func wrap(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (_ handler: @escaping @Sendable (Value?, (any Error)?) -> Void) throws -> Void
    ) -> Response<Value> {
        wrapping(on: executor, file: file, line: line) { gate in
            try body { value, error in gate.complete(with: outcome(value, error)) }
            return nil
        }
    }

    /// Makes a response from a call that reports through a `(value, error)` completion handler
    /// and returns something that can stop it: cancelling the response cancels the call.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the call runs.
    ///
    /// As ``wrap(on:file:line:_:)-(_,_,_,((Value?,(Error)?)->Void)->Void)``, and besides, once the
    /// response is cancelled (``Response/cancel()``, or a derived response that lets it go), the
    /// handle `body` returned is cancelled, on the cancelling thread. The handler's own report of
    /// the cancellation, when it comes, is quietly ignored.
    ///
    /// ```swift
    /// import Foundation
    /// #if canImport(FoundationNetworking)
    /// import FoundationNetworking   // URLSession, on Linux
    /// #endif
    /// import ResponseKit
    ///
    /// extension URLSessionTask: @retroactive ResponseCancellable {}
    ///
    /// func download(_ url: URL) -> Response<Data> {
    ///     .wrap { handler in
    ///         let task = URLSession.shared.dataTask(with: url) { data, _, error in handler(data, error) }
    ///         task.resume()
    ///         return task
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where the response's callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: starts the call, handing it `handler`, and returns what cancels it.
    /// - Returns: a response that finishes when the handler is first called.
    public static func wrap(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (_ handler: @escaping @Sendable (Value?, (any Error)?) -> Void) throws -> some ResponseCancellable
    ) -> Response<Value> {
        wrapping(on: executor, file: file, line: line) { gate in
            try body { value, error in gate.complete(with: outcome(value, error)) }
        }
    }

    /// Makes a response from a call that reports through a `Result` completion handler.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the call runs.
    ///
    /// As ``wrap(on:file:line:_:)-(_,_,_,((Value?,(Error)?)->Void)->Void)``: the handler's first
    /// call finishes the response with its result; a later one is reported. The handler's
    /// failure type may be any error type, such as a call's own `NetworkError`.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct City: Sendable { let name: String }
    /// struct NetworkError: Error {}
    /// struct CitiesAPI {   // an SDK's API, with a completion handler
    ///     func fetchCities(completion: @escaping @Sendable (Result<[City], NetworkError>) -> Void) {
    ///         completion(.success([City(name: "Lima")]))
    ///     }
    /// }
    ///
    /// let cities = Response<[City]>.wrap { handler in CitiesAPI().fetchCities(completion: handler) }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where the response's callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: starts the call, handing it `handler`.
    /// - Returns: a response that finishes when the handler is first called.
    public static func wrap<Failure: Error>(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (_ handler: @escaping @Sendable (Result<Value, Failure>) -> Void) throws -> Void
    ) -> Response<Value> {
        wrapping(on: executor, file: file, line: line) { gate in
            try body { result in gate.complete(with: result.mapError { $0 }) }
            return nil
        }
    }

    /// Makes a response from a call that reports through a `Result` completion handler and
    /// returns something that can stop it: cancelling the response cancels the call.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the call runs.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct City: Sendable { let name: String }
    /// struct CitiesAPI {   // an SDK's API whose call returns the task doing the work
    ///     func fetchCities(completion: @escaping @Sendable (Result<[City], any Error>) -> Void) -> Task<Void, Never> {
    ///         Task { completion(.success([City(name: "Lima")])) }
    ///     }
    /// }
    ///
    /// let cities = Response<[City]>.wrap { handler in CitiesAPI().fetchCities(completion: handler) }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where the response's callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: starts the call, handing it `handler`, and returns what cancels it.
    /// - Returns: a response that finishes when the handler is first called.
    public static func wrap<Failure: Error>(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (_ handler: @escaping @Sendable (Result<Value, Failure>) -> Void) throws -> some ResponseCancellable
    ) -> Response<Value> {
        wrapping(on: executor, file: file, line: line) { gate in
            try body { result in gate.complete(with: result.mapError { $0 }) }
        }
    }

    /// Makes a response from a call whose completion handler takes only a value: the call cannot
    /// fail (unless `body` throws).
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the call runs.
    ///
    /// The handler's first call succeeds the response; a later one is reported.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct Inbox {   // an SDK's API, with a completion handler that cannot fail
    ///     func countUnread(completion: @escaping @Sendable (Int) -> Void) { completion(3) }
    /// }
    ///
    /// let unread = Response<Int>.wrap { handler in Inbox().countUnread(completion: handler) }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where the response's callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: starts the call, handing it `handler`.
    /// - Returns: a response that succeeds when the handler is first called.
    public static func wrap(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (_ handler: @escaping @Sendable (Value) -> Void) throws -> Void
    ) -> Response<Value> {
        wrapping(on: executor, file: file, line: line) { gate in
            try body { value in gate.complete(with: .success(value)) }
            return nil
        }
    }

    /// Makes a response from a call whose completion handler takes only a value and that returns
    /// something that can stop it: cancelling the response cancels the call.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the call runs.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct Counter {   // an SDK's API whose call returns a closure that stops it
    ///     func fetchCount(completion: @escaping @Sendable (Int) -> Void) -> @Sendable () -> Void {
    ///         completion(3)
    ///         return {}
    ///     }
    /// }
    ///
    /// let count = Response<Int>.wrap { handler in ResponseCancellation(Counter().fetchCount(completion: handler)) }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where the response's callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: starts the call, handing it `handler`, and returns what cancels it.
    /// - Returns: a response that succeeds when the handler is first called.
    public static func wrap(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (_ handler: @escaping @Sendable (Value) -> Void) throws -> some ResponseCancellable
    ) -> Response<Value> {
        wrapping(on: executor, file: file, line: line) { gate in
            try body { value in gate.complete(with: .success(value)) }
        }
    }

    /// The shape every `wrap` shares: a pending response whose resolver only `gate` holds;
    /// `start` runs the call and returns what cancels it, if anything.
    static func wrapping(
        on executor: ResponseExecutor,
        file: StaticString,
        line: UInt,
        _ start: (CompletionHandlerGate<Value>) throws -> (any ResponseCancellable)?
    ) -> Response<Value> {
        let response = Response(pendingOn: executor, file: file, line: line)
        let gate = CompletionHandlerGate(Resolver(response), file: file, line: line)
        do {
            if let handle = try start(gate) { response.addCancellationHandler { handle.cancel() } }
        } catch {
            gate.fail(thrown: error)
        }
        return response
    }

    /// What a `(value, error)` handler's call means: the error wins, then the value.
    static func outcome(_ value: Value?, _ error: (any Error)?) -> Result<Value, any Error> {
        if let error { return .failure(error) }
        if let value { return .success(value) }
        return .failure(ResponseError.neitherValueNorError)
    }
}

extension Response where Value == Void {
    /// Makes a `Response<Void>` from a call that reports through an `(Error?)` completion
    /// handler: `nil` succeeds the response, an error fails it.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the call runs.
    ///
    /// As ``wrap(on:file:line:_:)-(_,_,_,((Value?,(Error)?)->Void)->Void)``: the handler's first
    /// call finishes the response; a later one is reported.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct Drafts {   // an SDK's API, with a completion handler
    ///     func save(_ draft: String, completion: @escaping @Sendable ((any Error)?) -> Void) { completion(nil) }
    /// }
    ///
    /// let saved = Response<Void>.wrap { handler in Drafts().save("Dear Ada,", completion: handler) }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where the response's callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: starts the call, handing it `handler`.
    /// - Returns: a response that finishes when the handler is first called.
    public static func wrap(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (_ handler: @escaping @Sendable ((any Error)?) -> Void) throws -> Void
    ) -> Response<Void> {
        wrapping(on: executor, file: file, line: line) { gate in
            try body { error in gate.complete(with: error.map { .failure($0) } ?? .success(())) }
            return nil
        }
    }

    /// Makes a `Response<Void>` from a call that reports through an `(Error?)` completion
    /// handler and returns something that can stop it: cancelling the response cancels the call.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where the call runs.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct Uploader {   // an SDK's API whose call returns the task doing the work
    ///     func upload(_ file: String, completion: @escaping @Sendable ((any Error)?) -> Void) -> Task<Void, Never> {
    ///         Task { completion(nil) }
    ///     }
    /// }
    ///
    /// let uploaded = Response<Void>.wrap { handler in Uploader().upload("photo.jpg", completion: handler) }
    /// ```
    ///
    /// - Parameters:
    ///   - executor: where the response's callbacks run; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, reported by diagnostics. Leave the default.
    ///   - line: the creation site, reported by diagnostics. Leave the default.
    ///   - body: starts the call, handing it `handler`, and returns what cancels it.
    /// - Returns: a response that finishes when the handler is first called.
    public static func wrap(
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (_ handler: @escaping @Sendable ((any Error)?) -> Void) throws -> some ResponseCancellable
    ) -> Response<Void> {
        wrapping(on: executor, file: file, line: line) { gate in
            try body { error in gate.complete(with: error.map { .failure($0) } ?? .success(())) }
        }
    }
}
