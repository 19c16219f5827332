import ExampleSupport

/// Why a register was not activated. Each case says so in words a cashier understands.
public nonisolated enum RegisterActivationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A field of the form.
    public enum Field: String, Hashable, Sendable {
        /// The store's name.
        case storeName = "store name"
        /// The manager's login.
        case login = "login"
        /// The manager's password.
        case password = "password"
        /// The register's number.
        case registerNumber = "register number"
    }

    /// A field was left empty; the server was not asked.
    case missingField(Field)
    /// The register number is not a positive whole number; the server was not asked.
    case invalidRegisterNumber(String)
    /// The server knows no store by this name.
    case unknownStore(String)
    /// The login and password do not match a manager of the store.
    case wrongCredentials
    /// The store has no register with this number.
    case noSuchRegister(Int)
    /// The server did not answer in time; the request was cancelled.
    case timedOut(after: Duration)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .missingField(let field):
            "The \(field.rawValue) is empty: please fill it in."
        case .invalidRegisterNumber(let typed):
            "\"\(InputEcho.display(typed))\" is not a register number: use a whole number such as 1."
        case .unknownStore(let name):
            "No store is called \"\(InputEcho.display(name))\": check the spelling."
        case .wrongCredentials:
            "Wrong login or password for this store."
        case .noSuchRegister(let number):
            "This store has no register \(number)."
        case .timedOut(let limit):
            "The server did not answer within \(limit.formattedSeconds): check the connection and try again."
        }
    }
}

nonisolated extension Duration {
    /// `1.5 s`, `5 s`.
    var formattedSeconds: String {
        let (seconds, attoseconds) = components
        let tenths = Int(attoseconds / 100_000_000_000_000_000)
        return tenths == 0 ? "\(seconds) s" : "\(seconds).\(tenths) s"
    }
}
