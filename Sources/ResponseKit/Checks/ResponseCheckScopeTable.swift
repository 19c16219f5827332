import CResponseKit

/// Which ``ResponseCheckScope`` each checked response was made in, from its creation to its
/// deinit: so a diagnostic reported on any thread, even after the test's own code returned, finds
/// the test that made the response.
///
/// A table beside the responses rather than a field in each: a response costs nothing more while
/// no test checks responses (its initialiser reads one word, `rk_check_scopes_running`), and the
/// `checked` flag tells the deinit whether to leave the table. Keyed by the response's address
/// (`UInt(bitPattern: ObjectIdentifier(response))`), which is also how a completion records the
/// response it delivers (`rk_delivery_recorded`).
@usableFromInline
enum ResponseCheckScopeTable {
    private static let table = LockedBox.make([UInt: ResponseCheckScope]())

    /// Makes `response`, just made, belong to a test's scope, the first of:
    ///
    /// 1. the scope current here (the test's own code, its child tasks, code it runs through
    ///    ``ResponseCheckScope/run(_:)``);
    /// 2. the scope of the response it is linked to (derived from a checked response, made on
    ///    another thread by a completion);
    /// 3. the scope of the response whose completion runs on this thread now: a response made by
    ///    a transform, a `flatMap` closure or a callback of the test's response, on whatever
    ///    thread finished it, is the test's too.
    @usableFromInline @inline(never)
    static func adopt(_ response: some AnyResponse & AnyResponse, linkedTo link: AnyObject?) {
        guard
            let scope = ResponseCheckScope.current ?? link.flatMap({ Self.scope(of: ObjectIdentifier($0)) })
                ?? scopeOfCompletionHere()
        else {
            return
        }
        table.withLock { $0[UInt(bitPattern: ObjectIdentifier(response))] = scope }
        response.setChecked()
        scope.adopt(response)
    }

    /// The scope of the innermost response this thread is completing that was made in one.
    private static func scopeOfCompletionHere() -> ResponseCheckScope? {
        var level: UInt32 = 0
        while true {
            let address = rk_delivery_recorded(level)
            guard address != 0 else { return nil }
            if let scope = table.withLock({ $0[address] }) { return scope }
            level += 1
        }
    }

    /// Forgets a checked response, released.
    @usableFromInline @inline(never)
    static func forget(_ response: ObjectIdentifier) {
        let scope = table.withLock { $0.removeValue(forKey: UInt(bitPattern: response)) }
        scope?.forget(response)
    }

    /// The scope `response` was made in, if it was made in one.
    static func scope(of response: ObjectIdentifier) -> ResponseCheckScope? {
        table.withLock { $0[UInt(bitPattern: response)] }
    }

    /// Hands `diagnostic` about `response` to the scope it was made in; `false` when it was made
    /// in none, and the diagnostic goes to the handler.
    static func deliver(_ diagnostic: ResponseDiagnostic, about response: ObjectIdentifier) -> Bool {
        guard rk_check_scopes_were_used(), let scope = scope(of: response) else { return false }
        scope.receive(diagnostic)
        return true
    }

    /// Runs `body` with the scope `response` was made in current, when it was made in one and
    /// that scope is not current already: user code that a checked response runs off the test's
    /// thread (a transform on another executor, a callback job, a `Response(on:)` body) makes
    /// responses that are the test's.
    @usableFromInline @inline(never)
    static func run<R>(inScopeOf response: AnyObject, _ body: () throws -> R) rethrows -> R {
        guard let scope = scope(of: ObjectIdentifier(response)), ResponseCheckScope.current !== scope else {
            return try body()
        }
        return try scope.run(body)
    }

    /// `body`, made to run in the scope `response` was made in (see ``run(inScopeOf:_:)``).
    @usableFromInline @inline(never)
    static func binding<Argument>(
        _ body: @escaping @Sendable (Argument) -> Void,
        toScopeOf response: AnyObject
    ) -> @Sendable (Argument) -> Void {
        guard let scope = scope(of: ObjectIdentifier(response)) else { return body }
        return { argument in scope.run { body(argument) } }
    }

    /// A main-actor `body`, made to run in the scope `response` was made in.
    @usableFromInline @inline(never)
    static func bindingMainActor<Argument>(
        _ body: @escaping @MainActor (Argument) -> Void,
        toScopeOf response: AnyObject
    ) -> @MainActor (Argument) -> Void {
        guard let scope = scope(of: ObjectIdentifier(response)) else { return body }
        return { argument in scope.run { body(argument) } }
    }
}

extension Response {
    @usableFromInline
    func setChecked() {
        setFlags(ResponseFlags.checked)
    }

    /// Whether the response was made under a test's response checks (a slow path is taken).
    @inlinable
    var isChecked: Bool {
        rk_load_relaxed(word) & ResponseFlags.checked != 0
    }
}
