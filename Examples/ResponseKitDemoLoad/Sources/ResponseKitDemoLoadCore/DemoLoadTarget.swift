import AuthenticationCore
import CitiesCore
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitDemoCore
import ResponseKitLoad
import SignInCore

/// The demo's interactors, wired as `DemoApp` wires them, each as one request for the load driver.
public enum DemoLoadTarget {
    /// The demo's sign-in, as ada / secret: `AuthInteractor` over the `AuthenticationUseCaseWorker`
    /// adapter, over the decorated authentication use case (timeout, validation, interception), over
    /// the fake backend or an HTTP server, with the token saved to a 0600 file in `dataDirectory`
    /// at every sign-in.
    ///
    /// - Parameters:
    ///   - dataDirectory: where the token file goes.
    ///   - latency: the fake backend's latency, for the token and again for the user.
    ///   - server: the authentication server to sign in with over HTTP (`HTTPAuthenticationAPI`),
    ///     as the demo's `--auth-server`; `nil` for the in-process fake.
    ///   - scheduler: the backend's and the timeout's source of time.
    /// - Returns: one sign-in per call; answers come back on the main queue, as in the demo.
    public static func signIn(
        dataDirectory: String, latency: Duration, server: URL? = nil,
        scheduler: any ResponseScheduler = DispatchScheduler()
    ) -> @Sendable (Int) -> Response<AuthState> {
        let api = AuthenticationComposition.makeAPI(
            server: server, latency: FakeAuthenticationBackend.Latency(token: latency, user: latency),
            scheduler: scheduler)
        let tokenStore = FileTokenStore(path: "\(dataDirectory)/session/token")
        let useCase = AuthenticationComposition.makeUseCase(api: api, tokenStore: tokenStore, scheduler: scheduler)
        let interactor = AuthInteractor(
            worker: AuthenticationUseCaseWorker(useCase: useCase, api: api, tokenStore: tokenStore))
        return { _ in interactor.signIn(username: "ada", password: "secret") }
    }

    /// The demo's `AddCity` over its JSON file in `dataDirectory`: request *n* adds `City n`.
    ///
    /// - Parameter dataDirectory: where `cities.json` goes.
    /// - Returns: one addition per call; answers come back on the main queue, as in the demo.
    public static func addCity(dataDirectory: String) -> @Sendable (Int) -> Response<CitiesChange> {
        let addCity = AddCity(gateway: FileCitiesGateway(path: "\(dataDirectory)/cities.json"))
        return { index in addCity.execute(name: "City \(index)") }
    }

    /// An interactor with nothing to do: it answers at once with the request's number. What the
    /// driver measures then is its own cost, and the executor's.
    ///
    /// - Parameter executor: where the answers come back.
    /// - Returns: one answer per call.
    public static func echo(on executor: ResponseExecutor) -> @Sendable (Int) -> Response<Int> {
        { index in .succeeded(index, on: executor) }
    }
}
