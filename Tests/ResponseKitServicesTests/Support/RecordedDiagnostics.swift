import ResponseKit
import ResponseKitTesting

/// Every diagnostic ResponseKit reports while the tests run: the process's one recorder, shared
/// with the engine's tests (the hook is process-wide).
let recordedDiagnostics = DiagnosticsRecorder.shared

/// Starts recording (idempotent); call before creating the responses a test will look at.
func startRecordingDiagnostics() {
    _ = recordedDiagnostics
}

/// The diagnostics of `kind` about responses created in files whose `#fileID` starts with
/// `prefix`, such as `ResponseKitServices/` for the whole services library.
func diagnostics(_ kind: ResponseDiagnostic.Kind, aboutResponsesCreatedUnder prefix: String) -> [ResponseDiagnostic] {
    recordedDiagnostics.values.filter { $0.kind == kind && $0.file.hasPrefix(prefix) }
}
