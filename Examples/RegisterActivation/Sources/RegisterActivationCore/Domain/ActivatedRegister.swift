/// A register the server activated: it may now take sales.
public nonisolated struct ActivatedRegister: Hashable, Sendable {
    /// The store the register belongs to.
    public let storeName: String
    /// The register's number.
    public let registerNumber: Int
    /// The licence key the register must present from now on.
    public let licenceKey: String

    /// Makes an activated register.
    ///
    /// - Parameters:
    ///   - storeName: the store the register belongs to.
    ///   - registerNumber: the register's number.
    ///   - licenceKey: the licence key the server issued.
    public init(storeName: String, registerNumber: Int, licenceKey: String) {
        self.storeName = storeName
        self.registerNumber = registerNumber
        self.licenceKey = licenceKey
    }
}
