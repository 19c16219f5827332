import Foundation

/// Where an example keeps its files between runs.
public enum DataDirectory {
    /// `$XDG_DATA_HOME/ResponseKitExamples/<app>`, or `~/.local/share/ResponseKitExamples/<app>`
    /// when `XDG_DATA_HOME` is not set: the per-user data directory of the freedesktop.org
    /// convention, outside the repository, so runs never dirty the working tree.
    ///
    /// - Parameters:
    ///   - app: the example's name, such as `Cities`.
    ///   - environment: the process environment; the real one by default.
    /// - Returns: the directory's path; it may not exist yet (writes create it).
    public static func path(for app: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = "\(environment["HOME"] ?? NSHomeDirectory())/.local/share"
        }
        return "\(base)/ResponseKitExamples/\(app)"
    }
}
