import CResponseKit

/// Which ``ResponseCheckScope`` each checked response was made in, from its creation to its
/// deinit: so a diagnostic reported on any thread, even after the test's own code returned, finds
/// the test that made the response.
///
/// A table beside the responses rather than a field in each: a response costs nothing more while
/// no test checks responses (its initialiser reads one word, `rk_check_scopes_running`), and the
/// `checked` flag tells the deinit whether to leave the table.
@usableFromInline
enum ResponseCheckScopes {
    private static let table = LockedBox.make([ObjectIdentifier: ResponseCheckScope]())

    /// Makes `response`, just made, belong to the current scope; or, outside any, to the scope of
    /// the response it is linked to (a response derived from a checked one, made on another thread
    /// by a completion, is that test's too).
    @usableFromInline @inline(never)
    static func adopt(_ response: some TrackableResponse & ResponseFlagsHolder, linkedTo link: AnyObject?) {
        guard let scope = ResponseCheckScope.current ?? link.flatMap({ Self.scope(of: ObjectIdentifier($0)) }) else {
            return
        }
        table.withLock { $0[ObjectIdentifier(response)] = scope }
        response.setChecked()
        scope.adopt(response)
    }

    /// Forgets a checked response, released.
    @usableFromInline @inline(never)
    static func forget(_ response: ObjectIdentifier) {
        let scope = table.withLock { $0.removeValue(forKey: response) }
        scope?.forget(response)
    }

    /// The scope `response` was made in, if it was made in one.
    static func scope(of response: ObjectIdentifier) -> ResponseCheckScope? {
        table.withLock { $0[response] }
    }

    /// Hands `diagnostic` about `response` to the scope it was made in; `false` when it was made
    /// in none, and the diagnostic goes to the handler.
    static func deliver(_ diagnostic: ResponseDiagnostic, about response: ObjectIdentifier) -> Bool {
        guard rk_check_scopes_were_used(), let scope = scope(of: response) else { return false }
        scope.receive(diagnostic)
        return true
    }
}

/// A response, for the table: sets its `checked` flag without its value type.
@usableFromInline
protocol ResponseFlagsHolder: AnyObject {
    func setChecked()
}

extension Response: ResponseFlagsHolder {
    @usableFromInline
    func setChecked() {
        setFlags(ResponseFlags.checked)
    }
}
