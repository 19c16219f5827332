import Foundation
import ResponseKit

/// The composition root's recipe for the use case: the core wrapped in its decorators, in the
/// order that makes each one right, and the backend it talks to.
public enum AuthenticationComposition {
    /// The backend: ``HTTPAuthenticationAPI`` when a server is named (`--auth-server`), the
    /// in-process ``FakeAuthenticationBackend`` otherwise, so that nothing needs to run beside the
    /// example.
    ///
    /// - Parameters:
    ///   - server: the server's base URL, or `nil` for the fake.
    ///   - latency: the fake's latency.
    ///   - scheduler: the source of time for the fake's latency and the HTTP timeout.
    /// - Returns: the backend.
    public static func makeAPI(
        server: URL?,
        latency: FakeAuthenticationBackend.Latency = .init(),
        scheduler: any ResponseScheduler = DispatchScheduler()
    ) -> any AuthenticationAPI {
        guard let server else { return FakeAuthenticationBackend(latency: latency, scheduler: scheduler) }
        return HTTPAuthenticationAPI(baseURL: server, scheduler: scheduler)
    }

    /// Builds the use case.
    ///
    /// From the inside out:
    /// 1. ``RemoteAuthentication`` fetches the token, stores it, fetches the user;
    /// 2. ``TimingOutAuthentication`` gives up on a slow backend (and cancels it);
    /// 3. ``ValidatingAuthentication`` refuses bad input before any request or timer, and checks
    ///    the user that comes back;
    /// 4. ``InterceptingAuthentication`` reports only users who passed every check.
    ///
    /// - Parameters:
    ///   - api: the backend.
    ///   - tokenStore: where the token is kept.
    ///   - timeout: how long the backend may take for both requests together.
    ///   - scheduler: the source of time for the timeout.
    ///   - onAuthenticated: told about each user signed in.
    /// - Returns: the composed use case.
    public static func makeUseCase(
        api: any AuthenticationAPI,
        tokenStore: any TokenStore,
        timeout: Duration = .seconds(5),
        scheduler: any ResponseScheduler = DispatchScheduler(),
        onAuthenticated: @escaping @Sendable (AuthenticatedUser) -> Void = { _ in }
    ) -> any AuthenticationUseCase {
        RemoteAuthentication(api: api, tokenStore: tokenStore)
            .timingOut(after: timeout, scheduler: scheduler)
            .validating()
            .intercepting(onAuthenticated)
    }
}
