import Foundation
import ResponseKit

/// Turns the file IDs that responses record (`#fileID`, `Module/File.swift`: short, and enough for
/// a message) into real paths, for the places where a test framework shows a problem: IDEs open
/// the file and CI annotates the line only with a path that exists.
///
/// A file ID names the module and the file, not its folder, so the path is looked up once per
/// run in the package's sources: every `.swift` file under the package root (the nearest folder
/// up from `near` with a `Package.swift`, or the current directory, where `swift test` runs),
/// keyed by each folder it sits in and its name. A file ID that matches no file, or more than one,
/// keeps its file ID.
enum SourceFilePaths {
    private static let index = LockedBox.make([String: [String: [String]]]())

    /// The real path of the file `fileID` names, or `nil` when it cannot be told.
    ///
    /// - Parameters:
    ///   - fileID: `Module/File.swift`.
    ///   - near: a real path in the same package (the test's own file), to find its root.
    static func path(of fileID: String, near: String? = nil) -> String? {
        guard fileID.contains("/"), let root = packageRoot(near: near) else { return nil }
        let files = index.withLock { index in
            if let files = index[root] { return files }
            let files = sourceFiles(under: root)
            index[root] = files
            return files
        }
        guard let matches = files[fileID], matches.count == 1 else { return nil }
        return matches[0]
    }

    /// The nearest folder up from `path` (or from the current directory) with a `Package.swift`.
    private static func packageRoot(near path: String?) -> String? {
        let manager = FileManager.default
        var folder = URL(fileURLWithPath: path ?? manager.currentDirectoryPath)
        if path != nil { folder.deleteLastPathComponent() }
        while folder.path != "/" && !folder.path.isEmpty {
            if manager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder.path }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// Each Swift file under `root` (not in hidden folders: `.build`, `.git`), under the key
    /// `Folder/File.swift` for every folder it sits in below the root.
    private static func sourceFiles(under root: String) -> [String: [String]] {
        var files: [String: [String]] = [:]
        let rootURL = URL(fileURLWithPath: root)
        guard
            let enumerator = FileManager.default.enumerator(
                at: rootURL,
                includingPropertiesForKeys: nil,
                options: [.skipsHiddenFiles, .skipsPackageDescendants]
            )
        else { return files }
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let folders = url.deletingLastPathComponent().path.dropFirst(root.count).split(separator: "/")
            for folder in Set(folders) {
                files["\(folder)/\(url.lastPathComponent)", default: []].append(url.path)
            }
        }
        return files
    }
}
