import AuthenticationCore
import ExampleSupport
import ResponseKit

/// A token store in memory, that can be told to fail.
nonisolated final class InMemoryTokenStore: TokenStore {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    private let state = Locked((token: AuthToken?.none, failsToSave: false))

    var token: AuthToken? { state.withLock { $0.token } }

    func failSaves() {
        state.withLock { $0.failsToSave = true }
    }

    func save(_ token: AuthToken) throws {
        try state.withLock { state in
            if state.failsToSave { throw Broken() }
            state.token = token
        }
    }

    func load() throws -> AuthToken? { token }

    func delete() throws {
        state.withLock { $0.token = nil }
    }
}
