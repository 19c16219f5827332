/// An error ResponseKit itself raises, as opposed to a failure of the work.
///
/// Compare with the static members; new codes may be added without breaking a `switch`,
/// because there is none to break:
///
/// <!-- example: fragment -->
/// ```swift
/// let response = Response<String>(on: .global()) { "Ada" }   // say, a slow fetch
/// do {
///     let user = try response.wait(timeout: .seconds(2))
///     print("hello, \(user)")
/// } catch let error as ResponseError where error == .timedOut {
///     print("still loading: keep the spinner")
/// }
/// ```
public struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case timedOut
        case deadlineExceeded
        case validationFailed
        case noResponses
        case abandoned
        case returnedSelf
        case neitherValueNorError
        case waitLimitExceeded
    }

    private let code: Code

    /// A blocking wait, ``Response/wait(timeout:)``, gave up before the response was done.
    ///
    /// Only the wait ended: the response itself goes on and may still finish (call
    /// ``Response/cancel()`` to stop it). Compare ``deadlineExceeded``, where the response failed.
    public static let timedOut = ResponseError(code: .timedOut)

    /// A ``Response/timeout(after:scheduler:file:line:)`` fired before the response it guards
    /// finished: the derived response failed with this error, and the response it waited on was
    /// cancelled (unless someone else still waits for it), so the work can stop.
    ///
    /// ResponseKitServices fails a service's step with it too, when the service does not answer
    /// within its limit. Compare ``timedOut``, where only a blocking wait gave up.
    public static let deadlineExceeded = ResponseError(code: .deadlineExceeded)

    /// A value failed a `validate` predicate that named no error of its own.
    public static let validationFailed = ResponseError(code: .validationFailed)

    /// A combinator that needs at least one response, such as `race` or `any`, was given none.
    public static let noResponses = ResponseError(code: .noResponses)

    /// The response's last resolver was released before it was resolved: the work was dropped and
    /// nobody can finish the response any more. Reported through ``ResponseDiagnostics`` with the
    /// creation site.
    public static let abandoned = ResponseError(code: .abandoned)

    /// A `flatMap` or `flatMapError` returned the very response it makes, which could never finish
    /// (Promises/A+ 2.3.1; PromiseKit calls it `returnedSelf`).
    public static let returnedSelf = ResponseError(code: .returnedSelf)

    /// A completion handler wrapped by `Response.wrap` was called with neither a value nor an
    /// error (`handler(nil, nil)`), so the response has nothing to succeed with (PromiseKit calls
    /// it an invalid calling convention).
    public static let neitherValueNorError = ResponseError(code: .neitherValueNorError)

    /// A blocking read with no timeout (``Response/value``, ``Response/error``,
    /// ``Response/result``) in a test under ResponseKitTesting's response checks waited longer than
    /// the test's wait limit, and gave up so that the test ends instead of hanging the run.
    ///
    /// Only the read ended, as with ``timedOut``: the response goes on. The checks report the
    /// wait as a problem of the test, naming the response.
    public static let waitLimitExceeded = ResponseError(code: .waitLimitExceeded)

    /// Says what went wrong.
    public var description: String {
        switch code {
        case .timedOut: "ResponseError.timedOut: the wait gave up before the response was done; the response goes on"
        case .deadlineExceeded:
            "ResponseError.deadlineExceeded: the response did not finish within its time limit and was cancelled"
        case .validationFailed: "ResponseError.validationFailed: the value did not pass validation"
        case .noResponses: "ResponseError.noResponses: the combinator was given no responses"
        case .abandoned: "ResponseError.abandoned: the last resolver was released before the response was resolved"
        case .returnedSelf:
            "ResponseError.returnedSelf: a flatMap returned the response it makes, which can never finish"
        case .neitherValueNorError:
            "ResponseError.neitherValueNorError: the completion handler was called with neither a value nor an error"
        case .waitLimitExceeded:
            "ResponseError.waitLimitExceeded: a blocking read in a checked test waited longer than the test's wait "
                + "limit and gave up; the response goes on"
        }
    }
}
