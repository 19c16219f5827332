/// The way into a wrapped call's response: the first call of its completion handler (or the
/// wrapped call's throw) resolves the response; any later call is reported through
/// ``ResponseDiagnostics``, never dropped silently.
///
/// The gate holds the response's resolver until the first call takes it. So a wrapped call that
/// drops its handler without calling it releases the last resolver, and the response fails with
/// ``ResponseError/abandoned`` (reported with the `wrap` site) instead of waiting forever.
final class CompletionHandlerGate<Value: Sendable>: Sendable {
    private let resolver: LockedBox<Resolver<Value>?>
    private let response: Response<Value>

    init(_ resolver: Resolver<Value>) {
        self.resolver = LockedBox.make(resolver)
        response = resolver.response
    }

    /// The completion handler was called: finishes the response on the first call, reports any
    /// later one. A first call after a cancellation (the wrapped call saying it stopped) is
    /// quietly ignored, as any result arriving after a cancellation is.
    func complete(with result: Result<Value, any Error>) {
        guard let resolver = takeResolver() else {
            report("had its completion handler called again, with \(Response.summary(of: result))")
            return
        }
        resolver.resolveIfPending(with: result)
    }

    /// The wrapped call threw: fails the response, unless the handler finished it already.
    func fail(thrown error: any Error) {
        guard let resolver = takeResolver() else {
            report("had its wrapped call throw \(error) after its completion handler was called")
            return
        }
        resolver.resolveIfPending(with: .failure(error))
    }

    /// The resolver on the first call, `nil` after.
    private func takeResolver() -> Resolver<Value>? {
        resolver.withLock { resolver in
            defer { resolver = nil }
            return resolver
        }
    }

    private func report(_ what: String) {
        let stands = response.currentResult.map { "the first result (\(Response.summary(of: $0))) stands" }
        ResponseDiagnostics.report(
            .resolvedTwice,
            "\(Response<Value>.self) made by wrap at \(response.file):\(response.line) \(what); "
                + (stands ?? "the first call's result stands"),
            file: response.file,
            line: response.line
        )
    }
}
