import Foundation

/// A fresh directory that is removed, with everything in it, when the object goes away (or at
/// ``remove()``): one per test, so tests that write files never see each other's.
///
/// ```swift
/// struct FileGatewayTests {
///     let directory = TemporaryDirectory()   // a new one for each test
///     @Test func savesTheList() throws {
///         let gateway = FileCitiesGateway(path: directory.path("cities.json"))
///         ...
///     }
/// }
/// ```
public nonisolated final class TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates a new, empty directory under the system's temporary directory.
    public init() {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/ResponseKitExamples-\(UUID().uuidString)"
        // Creating a uniquely named directory in the system's temporary directory only fails when
        // the machine is unusable for tests anyway.
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        remove()
    }

    /// Removes the directory and everything in it now; the object's end then has nothing left to
    /// do. For a program that ends with `exit`, which runs no deinitialiser: without it, each run
    /// left its directory behind.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    ///
    /// - Parameter name: a file name, or a relative path.
    /// - Returns: the full path.
    public func path(_ name: String) -> String {
        "\(path)/\(name)"
    }

    /// The names of the entries in the directory, sorted, hidden ones included.
    public var entries: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
