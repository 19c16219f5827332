import ResponseKit
import ResponseKitTesting

/// Every diagnostic ResponseKit reports while the tests run.
///
/// The hook is process-wide, so instead of swapping it per test (which would serialise tests,
/// and block pool threads while they wait their turn), it is set once to record into this list;
/// each test looks only at diagnostics about responses it created, by file and line.
let recordedDiagnostics: Recorder<ResponseDiagnostic> = {
    let recorder = Recorder<ResponseDiagnostic>()
    ResponseDiagnostics.handler = { recorder.record($0) }
    return recorder
}()

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
