import CResponseKit

/// The way into a wrapped call's response: the first call of its completion handler (or the
/// wrapped call's throw) resolves the response; any later call is reported through
/// ``ResponseDiagnostics``, never dropped silently.
///
/// The gate holds the response's resolver until the first call takes it. So a wrapped call that
/// drops its handler without calling it releases the last resolver, and the response fails with
/// ``ResponseError/abandoned`` (reported with the `wrap` site) instead of waiting forever.
final class CompletionHandlerGate<Value: Sendable>: Sendable {
    /// What the gate keeps: the resolver until the first call, then what that call said, for the
    /// report of a later one. Not the response: a wrapped API may keep its handler long after the
    /// response is done, and the response (its callbacks' captures, its links) should not live
    /// that long.
    private struct State: Sendable {
        var resolver: Resolver<Value>?
        var firstValue: Value?
        var firstFailure: String?
    }

    private let state: LockedBox<State>
    private let file: StaticString
    private let line: UInt
    /// The test scope the response was made in, if a test checks responses: the report of a late
    /// call is that test's, though the gate keeps no response to look it up by.
    private let checkScope: ResponseCheckScope?

    init(_ resolver: Resolver<Value>, file: StaticString, line: UInt) {
        state = LockedBox.make(State(resolver: resolver))
        self.file = file
        self.line = line
        checkScope =
            rk_check_scopes_were_used() ? ResponseCheckScopeTable.scope(of: ObjectIdentifier(resolver.response)) : nil
    }

    /// The completion handler was called: finishes the response on the first call, reports any
    /// later one. A first call after a cancellation (the wrapped call saying it stopped) is
    /// quietly ignored, as any result arriving after a cancellation is.
    func complete(with result: Result<Value, any Error>) {
        guard let resolver = takeResolver() else {
            report("had its completion handler called again, with \(Response.summary(of: result))")
            return
        }
        if resolver.resolveIfPending(with: result) { record(result) }
    }

    /// The wrapped call threw: fails the response, unless the handler finished it already.
    func fail(thrown error: any Error) {
        guard let resolver = takeResolver() else {
            report("had its wrapped call throw \(error) after its completion handler was called")
            return
        }
        if resolver.resolveIfPending(with: .failure(error)) { record(.failure(error)) }
    }

    /// The resolver on the first call; `nil` after.
    private func takeResolver() -> Resolver<Value>? {
        state.withLock { state in
            defer { state.resolver = nil }
            return state.resolver
        }
    }

    /// Keeps what the first call resolved the response with, for the report of a later call: the
    /// value itself, or a failure's description (an error need not be `Sendable`).
    private func record(_ result: Result<Value, any Error>) {
        state.withLock { state in
            switch result {
            case .success(let value): state.firstValue = value
            case .failure(let error): state.firstFailure = Response<Value>.summary(of: .failure(error))
            }
        }
    }

    private func report(_ what: String) {
        let first = state.withLock { state in
            state.firstValue.map { Response<Value>.summary(of: .success($0)) } ?? state.firstFailure
        }
        let stands = first.map { "the first result (\($0)) stands" } ?? "the response's first result stands"
        ResponseDiagnostics.report(
            .resolvedTwice,
            "\(Response<Value>.self) made by wrap at \(file):\(line) \(what); \(stands)",
            file: "\(file)",
            line: line,
            in: checkScope
        )
    }
}
