import ExampleSupport
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps the token in a file that only the user can read (permissions 0600).
///
/// Why a file of its own and not preferences: preference files are readable by any process of
/// the user, are copied into backups, and are often world-readable. The token file is created
/// with 0600 from its first byte (``ExampleSupport/AtomicFile`` sets the mode on the temporary
/// file before writing, then renames it), so no other account can read it even for a moment,
/// and a crash never leaves half a token. On Apple platforms the Keychain plays this role.
public nonisolated struct FileTokenStore: TokenStore {
    /// The file's permissions: read and write for the owner, nothing for anyone else.
    public static let permissions: mode_t = 0o600

    /// The file.
    public let path: String

    /// Makes a store for the file at `path`.
    ///
    /// - Parameter path: the file; it and its directory (0700) are created on the first save.
    public init(path: String) {
        self.path = path
    }

    /// Writes the token, replacing any previous one, with permissions 0600.
    public func save(_ token: AuthToken) throws {
        try AtomicFile.write(Data(token.value.utf8), to: path, permissions: Self.permissions)
    }

    /// Reads the token; `nil` when there is no file or it is empty.
    public func load() throws -> AuthToken? {
        guard let data = try AtomicFile.read(path), !data.isEmpty else { return nil }
        return AuthToken(value: String(decoding: data, as: UTF8.self))
    }

    /// Removes the file; succeeds when there is none.
    public func delete() throws {
        if unlink(path) != 0, errno != ENOENT {
            throw FileError(operation: "unlink", path: path, code: errno)
        }
    }
}
