/// What the cities screen shows: a headline and one row per city.
public nonisolated struct CitiesViewModel: Hashable, Sendable {
    /// `Your cities (2)`, or `No cities yet: add one, such as: add Paris`.
    public let title: String
    /// `1. Paris`, `2. Lima`, in the order they were added.
    public let rows: [String]
    /// What the last change did, `Added Lima.`; `nil` after a plain display.
    public let message: String?

    /// Makes a view model.
    ///
    /// - Parameters:
    ///   - title: the headline.
    ///   - rows: one row per city.
    ///   - message: what the last change did.
    public init(title: String, rows: [String], message: String? = nil) {
        self.title = title
        self.rows = rows
        self.message = message
    }
}
