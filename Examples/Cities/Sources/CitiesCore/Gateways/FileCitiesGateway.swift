import Dispatch
import ExampleSupport
import Foundation
import ResponseKit

/// Keeps the list of cities in a JSON file, so that it survives restarts.
///
/// ```json
/// {"cities":[{"name":"Paris"},{"name":"Lima"}],"version":1}
/// ```
///
/// - Every write replaces the file atomically (``ExampleSupport/AtomicFile``): a crash leaves the
///   old list or the new one, never half a file.
/// - Reads and changes run one at a time on a serial queue, off the main thread, so two changes
///   never lose each other's work.
/// - A file that is not a list of cities (hand-edited, truncated, written by a newer version) is
///   never overwritten: every read and change fails with ``CitiesFileError/damaged(path:reason:)``,
///   which says where the file is and how to recover, until someone repairs or moves it.
public nonisolated final class FileCitiesGateway: CitiesGateway {
    /// The file's format version; a file with another version is left alone.
    static let version = 1

    /// The JSON document.
    struct Document: Codable {
        var version: Int
        var cities: [City]
    }

    /// The file.
    public let path: String
    private let queue: DispatchQueue

    /// Makes a gateway for the file at `path`; nothing is read before the first call.
    ///
    /// - Parameter path: the file; it and its directory are created on the first change.
    public init(path: String) {
        self.path = path
        self.queue = DispatchQueue(label: "FileCitiesGateway \(path)")
    }

    /// Reads the list from the file; no file is an empty list.
    public func loadCities() -> Response<[City]> {
        Response(on: queue) { [path] in try Self.read(path) }
    }

    /// Reads the list, applies `change`, and writes the result atomically.
    public func updateCities<Outcome: Sendable>(
        _ change: @escaping @Sendable (inout [City]) throws -> Outcome
    ) -> Response<Outcome> {
        Response(on: queue) { [path] in
            var cities = try Self.read(path)
            let outcome = try change(&cities)
            let data = try JSONEncoder.sorted.encode(Document(version: Self.version, cities: cities))
            do {
                try AtomicFile.write(data, to: path)
            } catch {
                throw CitiesFileError.unwritable(path: path, reason: "\(error)")
            }
            return outcome
        }
    }

    private static func read(_ path: String) throws(CitiesFileError) -> [City] {
        let data: Data?
        do {
            data = try AtomicFile.read(path)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        guard let data else { return [] }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw .damaged(path: path, reason: data.isEmpty ? "the file is empty" : "it is not a list of cities")
        }
        guard document.version == version else {
            throw .damaged(
                path: path, reason: "it has format version \(document.version); this app reads version \(version)")
        }
        return document.cities
    }
}

nonisolated extension JSONEncoder {
    /// Stable output: keys sorted, so the file diffs cleanly.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
