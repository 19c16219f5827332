import ResponseKit
import ResponseKitTesting

/// Every diagnostic ResponseKit reports while the tests run: the process's one recorder, shared
/// with the other test targets (the hook is process-wide), so swapping it per test is never
/// needed; each test looks only at diagnostics about responses it created, by file and line.
let recordedDiagnostics = DiagnosticsRecorder.shared

/// The diagnostics reported about responses created at `line` of the calling file.
///
/// Watchdog reports (`longPending`) are left out unless asked for: a tracking test that runs at
/// the same time starts a process-wide watchdog, which may report any test's pending response.
func diagnostics(
    forResponseCreatedAt line: UInt,
    fileID: String = #fileID,
    includingWatchdog: Bool = false
) -> [ResponseDiagnostic] {
    recordedDiagnostics.values.filter {
        $0.line == line && $0.file == fileID && (includingWatchdog || $0.kind != .longPending)
    }
}

/// Starts recording (idempotent); call before creating the responses a test will look at.
func startRecordingDiagnostics() {
    _ = recordedDiagnostics
}
