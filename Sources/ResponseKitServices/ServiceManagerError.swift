/// An error a ``ServiceManager`` raises: misuse a correct program can meet, such as starting
/// twice, or services that failed.
///
/// Each error names the app's code, not the library's: the manager's methods take the caller's
/// `#fileID` and line (leave their defaults), so ``file`` and ``line`` are the site of the call
/// that raised the error, and a failed service is named with the site where it was registered.
///
/// Compare errors with the static members; equality looks at the kind of error only, not at the
/// failures or the site, so new kinds can be added without breaking anyone's `switch`:
///
/// <!-- example: fragment @MainActor -->
/// ```swift
/// let manager = ServiceManager()
/// do {
///     try manager.start()
/// } catch let error as ServiceManagerError where error == .alreadyStarted() {
///     // someone else started it: fine
/// }
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct ServiceManagerError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case alreadyStarted
        case alreadyStopped
        case notStarted
        case servicesFailed
    }

    private let code: Code
    /// The services that failed, in registration order; empty unless the error is
    /// ``servicesFailed(_:file:line:)``.
    public let failures: [ServiceFailure]
    /// The service that ``ServiceManager/register(_:file:line:)`` refused to register, because
    /// the manager was stopping or stopped; `nil` for every other error.
    public let serviceName: String?
    /// The file of the call that raised the error: the app's call of a ``ServiceManager`` method,
    /// or the call of the static member that made the error.
    public let file: String
    /// The line of the call that raised the error, in ``file``.
    public let line: Int

    private init(_ code: Code, failures: [ServiceFailure] = [], serviceName: String? = nil, file: String, line: Int) {
        self.code = code
        self.failures = failures
        self.serviceName = serviceName
        self.file = file
        self.line = line
    }

    /// ``ServiceManager/start(file:line:)`` was called on a manager that was already started.
    ///
    /// - Parameters:
    ///   - file: the call that raised the error. Leave the default.
    ///   - line: the call that raised the error. Leave the default.
    public static func alreadyStarted(file: String = #fileID, line: Int = #line) -> Self {
        Self(.alreadyStarted, file: file, line: line)
    }

    /// The manager was asked to start, register a service or send an event after
    /// ``ServiceManager/stop(file:line:)`` was called.
    ///
    /// - Parameters:
    ///   - file: the call that raised the error. Leave the default.
    ///   - line: the call that raised the error. Leave the default.
    public static func alreadyStopped(file: String = #fileID, line: Int = #line) -> Self {
        Self(.alreadyStopped, file: file, line: line)
    }

    /// ``alreadyStopped(file:line:)`` from ``ServiceManager/register(_:file:line:)``: names the
    /// service that was not registered and the app's call.
    static func alreadyStopped(registering serviceName: String, at site: CallSite) -> Self {
        Self(.alreadyStopped, serviceName: serviceName, file: site.file, line: site.line)
    }

    /// ``ServiceManager/send(_:file:line:)`` was called before ``ServiceManager/start(file:line:)``.
    ///
    /// - Parameters:
    ///   - file: the call that raised the error. Leave the default.
    ///   - line: the call that raised the error. Leave the default.
    public static func notStarted(file: String = #fileID, line: Int = #line) -> Self {
        Self(.notStarted, file: file, line: line)
    }

    /// Some services failed to start, to handle an event or to stop; the others went on.
    ///
    /// - Parameters:
    ///   - failures: the failures, in registration order.
    ///   - file: the call that raised the error. Leave the default.
    ///   - line: the call that raised the error. Leave the default.
    public static func servicesFailed(
        _ failures: [ServiceFailure] = [],
        file: String = #fileID,
        line: Int = #line
    ) -> Self {
        Self(.servicesFailed, failures: failures, file: file, line: line)
    }

    /// The names of the services in ``failures``.
    public var failedServiceNames: [String] {
        failures.map(\.serviceName)
    }

    /// Whether both errors are of the same kind; failures and sites are not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the kind of error only, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// Says what went wrong, where the app made the call and, for failed services, which ones,
    /// why, and where each was registered.
    public var description: String {
        switch code {
        case .alreadyStarted:
            return "ServiceManagerError.alreadyStarted: start() was called twice (at \(file):\(line))"
        case .alreadyStopped:
            guard let serviceName else {
                return "ServiceManagerError.alreadyStopped: the manager is stopping or stopped (at \(file):\(line))"
            }
            return "ServiceManagerError.alreadyStopped: \(serviceName) was not registered (at \(file):\(line)): "
                + "the manager is stopping or stopped"
        case .notStarted:
            return "ServiceManagerError.notStarted: send(_:) was called before start() (at \(file):\(line))"
        case .servicesFailed:
            let named = failures.map { failure in
                failure.registrationSite.map { "\(failure) (registered at \($0))" } ?? failure.description
            }
            return "ServiceManagerError.servicesFailed: " + named.joined(separator: "; ")
        }
    }
}
