/// Why ``FileCitiesGateway`` could not read or save the list. The stored list is never lost.
public nonisolated enum CitiesFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but is not a list this app can read. It is left exactly as it is.
    case damaged(path: String, reason: String)
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The new list could not be saved; the file still holds the old one.
    case unwritable(path: String, reason: String)

    /// What went wrong, that nothing was lost, and what to do.
    public var description: String {
        switch self {
        case .damaged(let path, let reason):
            "The cities file \(path) is damaged (\(reason)). It was left untouched, so nothing is lost: "
                + "repair it, or move it away to start a new list, then try again."
        case .unreadable(let path, let reason):
            "The cities file \(path) could not be read (\(reason)). Nothing was changed."
        case .unwritable(let path, let reason):
            "The cities could not be saved to \(path) (\(reason)). The file still holds the previous list."
        }
    }
}
