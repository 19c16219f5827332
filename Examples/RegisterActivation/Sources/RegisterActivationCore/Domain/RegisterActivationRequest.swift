/// What the cashier typed to activate a point-of-sale register, as typed: nothing is checked yet.
public nonisolated struct RegisterActivationRequest: Hashable, Sendable {
    /// The store's name, such as `Corner Shop`.
    public var storeName: String
    /// The manager's login at that store.
    public var login: String
    /// The manager's password.
    public var password: String
    /// The register's number, as typed: `2`.
    public var registerNumber: String

    /// Makes a request from the four fields of the form.
    ///
    /// - Parameters:
    ///   - storeName: the store's name.
    ///   - login: the manager's login.
    ///   - password: the manager's password.
    ///   - registerNumber: the register's number, as typed.
    public init(storeName: String, login: String, password: String, registerNumber: String) {
        self.storeName = storeName
        self.login = login
        self.password = password
        self.registerNumber = registerNumber
    }

    /// The request with its fields checked: none empty, the register number a positive integer.
    ///
    /// - Returns: the checked request, names trimmed of spaces (the password is kept as typed).
    /// - Throws: ``RegisterActivationError/missingField(_:)`` or
    ///   ``RegisterActivationError/invalidRegisterNumber(_:)``.
    public func validated() throws(RegisterActivationError) -> ValidActivationRequest {
        let store = storeName.trimmingSpaces()
        let login = login.trimmingSpaces()
        let number = registerNumber.trimmingSpaces()
        if store.isEmpty { throw .missingField(.storeName) }
        if login.isEmpty { throw .missingField(.login) }
        if password.isEmpty { throw .missingField(.password) }
        if number.isEmpty { throw .missingField(.registerNumber) }
        guard let register = Int(number), register > 0 else { throw .invalidRegisterNumber(number) }
        return ValidActivationRequest(storeName: store, login: login, password: password, registerNumber: register)
    }
}

/// A request whose fields passed ``RegisterActivationRequest/validated()``: what the server is sent.
public nonisolated struct ValidActivationRequest: Hashable, Sendable {
    /// The store's name, trimmed.
    public let storeName: String
    /// The manager's login, trimmed.
    public let login: String
    /// The manager's password.
    public let password: String
    /// The register's number, at least 1.
    public let registerNumber: Int
}

nonisolated extension String {
    /// The string without leading and trailing whitespace.
    func trimmingSpaces() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
        else {
            return ""
        }
        return String(self[start...end])
    }
}
