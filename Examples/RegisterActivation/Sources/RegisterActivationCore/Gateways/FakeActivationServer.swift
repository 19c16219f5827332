import ExampleSupport
import ResponseKit

/// A stand-in for the activation server, in memory, that answers after a delay.
///
/// It knows the stores it was given (``FakeStore/sample`` by default) and answers each request
/// after `latency`, timed by a ``ResponseKit/ResponseScheduler``: real time in the example,
/// `ManualScheduler` in tests, so a test of a slow server never sleeps. Cancelling a request drops
/// its pending answer.
public nonisolated final class FakeActivationServer: RegisterActivationGateway {
    private let stores: [FakeStore]
    private let latency: Duration
    private let scheduler: any ResponseScheduler
    private let requests = Locked(0)

    /// Makes a server.
    ///
    /// - Parameters:
    ///   - stores: the stores it knows.
    ///   - latency: how long each answer takes.
    ///   - scheduler: the source of time; `ManualScheduler` in tests.
    public init(
        stores: [FakeStore] = FakeStore.sample,
        latency: Duration = .milliseconds(1500),
        scheduler: any ResponseScheduler = DispatchScheduler()
    ) {
        self.stores = stores
        self.latency = latency
        self.scheduler = scheduler
    }

    /// How many requests reached the server.
    public var requestCount: Int {
        requests.withLock { $0 }
    }

    /// Answers `request` after the latency.
    ///
    /// - Parameter request: the checked request.
    /// - Returns: a response that succeeds with the register, or fails with
    ///   ``RegisterActivationError/unknownStore(_:)``, ``RegisterActivationError/wrongCredentials``
    ///   or ``RegisterActivationError/noSuchRegister(_:)``.
    public func activate(_ request: ValidActivationRequest) -> Response<ActivatedRegister> {
        requests.withLock { $0 += 1 }
        let answer = answer(to: request)
        let (response, resolver) = Response<ActivatedRegister>.pending()
        let reply = scheduler.schedule(after: latency) { resolver.resolve(with: answer) }
        resolver.onCancel { reply.cancel() }
        return response
    }

    private func answer(to request: ValidActivationRequest) -> Result<ActivatedRegister, any Error> {
        guard let store = stores.first(where: { $0.name.lowercased() == request.storeName.lowercased() }) else {
            return .failure(RegisterActivationError.unknownStore(request.storeName))
        }
        guard store.managers[request.login] == request.password else {
            return .failure(RegisterActivationError.wrongCredentials)
        }
        guard (1...store.registerCount).contains(request.registerNumber) else {
            return .failure(RegisterActivationError.noSuchRegister(request.registerNumber))
        }
        let key =
            "\(store.code)-\(request.registerNumber)-\(String(request.login.count * 7919, radix: 16).uppercased())"
        return .success(
            ActivatedRegister(storeName: store.name, registerNumber: request.registerNumber, licenceKey: key))
    }
}

/// A store that ``FakeActivationServer`` knows.
public nonisolated struct FakeStore: Sendable {
    /// The store's name; matched without regard to case.
    public let name: String
    /// A short code used in licence keys.
    public let code: String
    /// Managers' logins and passwords.
    public let managers: [String: String]
    /// How many registers the store has, numbered from 1.
    public let registerCount: Int

    /// Makes a store.
    ///
    /// - Parameters:
    ///   - name: the store's name.
    ///   - code: a short code used in licence keys.
    ///   - managers: managers' logins and passwords.
    ///   - registerCount: how many registers the store has.
    public init(name: String, code: String, managers: [String: String], registerCount: Int) {
        self.name = name
        self.code = code
        self.managers = managers
        self.registerCount = registerCount
    }

    /// The example's data: "Corner Shop", where `ada` / `secret` may activate registers 1 to 4.
    public static let sample = [
        FakeStore(name: "Corner Shop", code: "CS", managers: ["ada": "secret"], registerCount: 4),
        FakeStore(name: "Night Market", code: "NM", managers: ["grace": "cobol"], registerCount: 2),
    ]
}
