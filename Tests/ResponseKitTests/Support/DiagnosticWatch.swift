import ResponseKit
import ResponseKitTesting

/// Runs `body` while `watch` also sees every diagnostic reported, for a test that must act on
/// one as it comes (a report that resolves the response a wait blocks on).
///
/// Suites run at once, and the hook is one for the process: tests that each swapped
/// `ResponseDiagnostics.handler` and restored it on the way out could restore over another
/// test's handler, which then never saw its report (the watchdog test timed out after 30 s so).
/// Here the hook is set once, and watches come and go in a list.
func withDiagnosticWatch<T>(
    _ watch: @escaping @Sendable (ResponseDiagnostic) -> Void,
    _ body: () throws -> T
) rethrows -> T {
    DiagnosticWatches.installOnce()
    let id = DiagnosticWatches.watches.withLock { state in
        state.nextID += 1
        state.byID[state.nextID] = watch
        return state.nextID
    }
    defer { _ = DiagnosticWatches.watches.withLock { $0.byID.removeValue(forKey: id) } }
    return try body()
}

private enum DiagnosticWatches {
    static let watches = LockedBox.make((nextID: 0, byID: [Int: @Sendable (ResponseDiagnostic) -> Void]()))

    /// The shared recorder first, then every watch: set once, after the recorder's own hook.
    static let installed: Void = {
        startRecordingDiagnostics()
        let recorder = ResponseDiagnostics.handler
        ResponseDiagnostics.handler = { diagnostic in
            recorder(diagnostic)
            for watch in watches.withLock({ Array($0.byID.values) }) { watch(diagnostic) }
        }
    }()

    static func installOnce() { _ = installed }
}
