/// An error a ``ServiceManager`` raises: misuse a correct program can meet, such as starting
/// twice, or services that failed.
///
/// Compare errors with the static members; equality looks at the kind of error only, not at the
/// failures or the site, so new kinds can be added without breaking anyone's `switch`:
///
/// ```swift
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
    /// The file where the manager raised the error.
    public let file: String
    /// The line where the manager raised the error.
    public let line: Int

    private init(_ code: Code, failures: [ServiceFailure] = [], file: String, line: Int) {
        self.code = code
        self.failures = failures
        self.file = file
        self.line = line
    }

    /// ``ServiceManager/start()`` was called on a manager that was already started.
    public static func alreadyStarted(file: String = #fileID, line: Int = #line) -> Self {
        Self(.alreadyStarted, file: file, line: line)
    }

    /// The manager was asked to start, register a service or send an event after
    /// ``ServiceManager/stop()`` was called.
    public static func alreadyStopped(file: String = #fileID, line: Int = #line) -> Self {
        Self(.alreadyStopped, file: file, line: line)
    }

    /// ``ServiceManager/send(_:)`` was called before ``ServiceManager/start()``.
    public static func notStarted(file: String = #fileID, line: Int = #line) -> Self {
        Self(.notStarted, file: file, line: line)
    }

    /// Some services failed to start, to handle an event or to stop; the others went on.
    ///
    /// - Parameters:
    ///   - failures: the failures, in registration order.
    ///   - file: where the error was made. Leave the default.
    ///   - line: where the error was made. Leave the default.
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

    /// Says what went wrong and, for failed services, which ones and why.
    public var description: String {
        switch code {
        case .alreadyStarted:
            "ServiceManagerError.alreadyStarted: start() was called twice (at \(file):\(line))"
        case .alreadyStopped:
            "ServiceManagerError.alreadyStopped: the manager is stopping or stopped (at \(file):\(line))"
        case .notStarted:
            "ServiceManagerError.notStarted: send(_:) was called before start() (at \(file):\(line))"
        case .servicesFailed:
            "ServiceManagerError.servicesFailed: " + failures.map(\.description).joined(separator: "; ")
        }
    }
}
