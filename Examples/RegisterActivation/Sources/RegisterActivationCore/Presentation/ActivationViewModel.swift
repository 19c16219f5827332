/// What the activation screen shows once the server has answered.
public nonisolated struct ActivationViewModel: Hashable, Sendable {
    /// Whether the register is active, so the screen shows success or failure styling.
    public let isActivated: Bool
    /// The headline: `Register 2 of Corner Shop is active.` or `Activation failed.`
    public let title: String
    /// What to tell the cashier: the licence key, or what went wrong and what to do.
    public let detail: String

    /// Makes a view model.
    ///
    /// - Parameters:
    ///   - isActivated: whether the register is active.
    ///   - title: the headline.
    ///   - detail: what to tell the cashier.
    public init(isActivated: Bool, title: String, detail: String) {
        self.isActivated = isActivated
        self.title = title
        self.detail = detail
    }
}
