import ResponseKit

/// The interactor: activates a point-of-sale register (the `LSActivateRegister` of the original sample).
///
/// ``execute(_:)`` returns a response at once. A form with an empty field or a bad register
/// number fails it at once, without asking the server; otherwise the server is asked, and a
/// server that does not answer within the timeout fails it with
/// ``RegisterActivationError/timedOut(after:)`` and the request is cancelled.
///
/// ```swift
/// let activate = ActivateRegister(gateway: server, timeout: .seconds(5))
/// let register = try activate.execute(request).value   // the blocking style
/// ```
public nonisolated struct ActivateRegister: Sendable {
    private let gateway: any RegisterActivationGateway
    private let timeout: Duration
    private let scheduler: any ResponseScheduler

    /// Makes the interactor.
    ///
    /// - Parameters:
    ///   - gateway: the activation server.
    ///   - timeout: how long the server may take to answer.
    ///   - scheduler: the source of time for the timeout; `ManualScheduler` in tests.
    public init(
        gateway: any RegisterActivationGateway,
        timeout: Duration = .seconds(5),
        scheduler: any ResponseScheduler = DispatchScheduler()
    ) {
        self.gateway = gateway
        self.timeout = timeout
        self.scheduler = scheduler
    }

    /// Starts activating a register.
    ///
    /// - Parameter request: the form as typed.
    /// - Returns: a response that succeeds with the activated register, or fails with a
    ///   ``RegisterActivationError``.
    public func execute(_ request: RegisterActivationRequest) -> Response<ActivatedRegister> {
        let valid: ValidActivationRequest
        do {
            valid = try request.validated()
        } catch {
            return .failed(error)
        }
        let limit = timeout
        return gateway.activate(valid)
            .timeout(after: limit, scheduler: scheduler)
            .mapError { error in
                (error as? ResponseError) == .deadlineExceeded ? RegisterActivationError.timedOut(after: limit) : error
            }
    }
}
