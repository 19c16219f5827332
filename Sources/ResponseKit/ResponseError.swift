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
    }

    private let code: Code

    /// A blocking wait gave up before the response was done. The response itself goes on.
    public static let timedOut = ResponseError(code: .timedOut)

    /// Says what went wrong.
    public var description: String {
        switch code {
        case .timedOut: "ResponseError.timedOut: the response was not done before the timeout"
        }
    }
}
