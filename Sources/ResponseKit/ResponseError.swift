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
    }

    private let code: Code

    /// A blocking wait gave up before the response was done (the response itself goes on), or a
    /// ``Response/timeout(after:scheduler:file:line:)`` fired (and cancelled the work).
    public static let timedOut = ResponseError(code: .timedOut)

    /// A value failed a `validate` predicate that named no error of its own.
    public static let validationFailed = ResponseError(code: .validationFailed)

    /// A combinator that needs at least one response, such as `race` or `any`, was given none.
    public static let noResponses = ResponseError(code: .noResponses)

    /// Says what went wrong.
    public var description: String {
        switch code {
        case .timedOut: "ResponseError.timedOut: the response was not done before the timeout"
        case .validationFailed: "ResponseError.validationFailed: the value did not pass validation"
        case .noResponses: "ResponseError.noResponses: the combinator was given no responses"
        }
    }
}
