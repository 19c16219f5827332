/// An error ResponseKit itself raises, as opposed to a failure of the work.
///
/// Compare with the static members; new codes may be added without breaking a `switch`,
/// because there is none to break:
///
/// ```swift
/// do {
///     let user = try response.wait(timeout: .seconds(2))
/// } catch let error as ResponseError where error == .timedOut {
///     showSpinnerForLonger()
/// }
/// ```
public struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case timedOut
        case validationFailed
        case noResponses
        case abandoned
        case returnedSelf
    }

    private let code: Code

    /// A blocking wait gave up before the response was done (the response itself goes on), or a
    /// ``Response/timeout(after:scheduler:file:line:)`` fired (and cancelled the work).
    public static let timedOut = ResponseError(code: .timedOut)

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

    /// Says what went wrong.
    public var description: String {
        switch code {
        case .timedOut: "ResponseError.timedOut: the response was not done before the timeout"
        case .validationFailed: "ResponseError.validationFailed: the value did not pass validation"
        case .noResponses: "ResponseError.noResponses: the combinator was given no responses"
        case .abandoned: "ResponseError.abandoned: the last resolver was released before the response was resolved"
        case .returnedSelf:
            "ResponseError.returnedSelf: a flatMap returned the response it makes, which can never finish"
        }
    }
}
