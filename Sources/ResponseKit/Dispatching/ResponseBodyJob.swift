import Dispatch

/// The work of `Response(on: queue) { body }`, as one ``DispatchJob``: the response and its body.
///
/// No resolver (nor its handle, an allocation): the job holds the response, and Dispatch runs
/// every job it accepts, so the response cannot be abandoned; a cancellation that wins the race
/// keeps its result, and the body is then skipped.
///
/// `@unchecked Sendable`, proved: Swift checks no subclass of a class, so the conformance the base
/// has must be restated unchecked; the class is final, and its stored properties are two `let`s of
/// `Sendable` types (a `Response` and a `@Sendable` closure), besides the base's `@Sendable`
/// closure.
@usableFromInline
final class ResponseBodyJob<Value: Sendable>: DispatchJob, @unchecked Sendable {
    @usableFromInline let response: Response<Value>
    @usableFromInline let body: @Sendable () throws -> Value

    /// `perform` captures nothing: in code specialised for `Value` it is a plain function, with
    /// no context to allocate.
    @inlinable
    init(response: Response<Value>, body: @escaping @Sendable () throws -> Value) {
        self.response = response
        self.body = body
        super.init { job in
            // Only this class's initialiser makes this closure, for the job itself.
            unsafeDowncast(job, to: ResponseBodyJob<Value>.self).run()
        }
    }

    /// Runs the body unless the response was cancelled, and finishes the response with its
    /// outcome.
    @inlinable
    func run() {
        guard !response.isCancelled else { return }
        // Under the response checks, the body runs in the test's scope: it is the test's work.
        guard response.isChecked else {
            response.finish(with: Result(catching: body), how: .racing)
            return
        }
        ResponseCheckScopeTable.run(inScopeOf: response) {
            _ = response.finish(with: Result(catching: body), how: .racing)
        }
    }
}
