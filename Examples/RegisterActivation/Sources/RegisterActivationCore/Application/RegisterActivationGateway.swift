import ResponseKit

/// The activation server, as the application layer sees it. The gateway layer implements it
/// (``FakeActivationServer`` here; an HTTP client in a shipping app).
public nonisolated protocol RegisterActivationGateway: Sendable {
    /// Asks the server to activate a register.
    ///
    /// - Parameter request: the checked request.
    /// - Returns: a response, returned at once, that succeeds with the activated register or fails
    ///   with a ``RegisterActivationError``. Cancelling it abandons the request.
    func activate(_ request: ValidActivationRequest) -> Response<ActivatedRegister>
}
