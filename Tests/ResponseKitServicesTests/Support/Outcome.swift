import Dispatch
import ResponseKit
import ResponseKitServices
import Testing

/// Waits for `response` without blocking a thread, and returns its result.
///
/// The 30-second guard only matters when the code under test is broken: then the test fails
/// with a clear issue instead of hanging. Callbacks reach us on the response's executor, so a
/// `.main` response needs the main queue serviced, which a suspended `@MainActor` test allows.
func outcome<Value: Sendable>(
    of response: Response<Value>,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Result<Value, any Error> {
    let result = await withCheckedContinuation { continuation in
        let waiting = LockedBox<CheckedContinuation<Result<Value, any Error>, Never>?>.make(continuation)
        let resume: @Sendable (Result<Value, any Error>) -> Void = { result in
            let continuation = waiting.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }
            continuation?.resume(returning: result)
        }
        response.onResult { resume($0) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { resume(.failure(NeverFinished())) }
    }
    if case .failure(let error) = result, error is NeverFinished {
        Issue.record("\(response) did not finish within 30 seconds", sourceLocation: sourceLocation)
    }
    return result
}

/// The response awaited by ``outcome(of:sourceLocation:)`` did not finish in time.
struct NeverFinished: Error {}

extension Result where Failure == any Error {
    /// The error, or `nil` on success.
    var failure: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The names listed by a `ServiceManagerError.servicesFailed`; `nil` for any other outcome.
    var failedServiceNames: [String]? {
        guard let error = failure as? ServiceManagerError, error == .servicesFailed() else { return nil }
        return error.failedServiceNames
    }

    /// Whether the result is a success.
    var isSuccess: Bool {
        failure == nil
    }
}
