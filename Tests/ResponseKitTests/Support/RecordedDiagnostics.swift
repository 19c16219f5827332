import ResponseKit
import ResponseKitTesting

/// Runs `body` with ResponseKit's diagnostics going to a recorder instead of standard error.
///
/// The hook is process-wide, so every caller takes `diagnosticsLock` first: tests that look at
/// diagnostics run one at a time.
func withRecordedDiagnostics<T>(
    _ body: (Recorder<ResponseDiagnostic>) throws -> T
) throws -> T {
    diagnosticsLock.lock()
    defer { diagnosticsLock.unlock() }
    let recorder = Recorder<ResponseDiagnostic>()
    let previous = ResponseDiagnostics.handler
    ResponseDiagnostics.handler = { recorder.record($0) }
    defer { ResponseDiagnostics.handler = previous }
    return try body(recorder)
}

import Foundation
private let diagnosticsLock = NSLock()
