import ResponseKit

extension AuthenticationUseCase {
    /// This use case, with its input and output checked: see ``ValidatingAuthentication``.
    public func validating() -> ValidatingAuthentication {
        ValidatingAuthentication(decorating: self)
    }

    /// This use case, reporting each signed-in user: see ``InterceptingAuthentication``.
    ///
    /// - Parameter onAuthenticated: told about each user signed in.
    public func intercepting(_ onAuthenticated: @escaping @Sendable (AuthenticatedUser) -> Void)
        -> InterceptingAuthentication
    {
        InterceptingAuthentication(decorating: self, onAuthenticated: onAuthenticated)
    }

    /// This use case, given up on after `limit`: see ``TimingOutAuthentication``.
    ///
    /// - Parameters:
    ///   - limit: how long it may take.
    ///   - scheduler: the source of time.
    public func timingOut(after limit: Duration, scheduler: any ResponseScheduler = DispatchScheduler())
        -> TimingOutAuthentication
    {
        TimingOutAuthentication(decorating: self, limit: limit, scheduler: scheduler)
    }
}
