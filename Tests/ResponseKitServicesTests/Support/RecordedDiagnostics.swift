import ResponseKit
import ResponseKitTesting

/// Every diagnostic ResponseKit reports while the services tests run.
///
/// The hook is process-wide, so it is set once to record into this list instead of being swapped
/// per test; each test looks only at diagnostics about responses created where it cares.
let recordedDiagnostics: Recorder<ResponseDiagnostic> = {
    let recorder = Recorder<ResponseDiagnostic>()
    ResponseDiagnostics.handler = { recorder.record($0) }
    return recorder
}()

/// Starts recording (idempotent); call before creating the responses a test will look at.
func startRecordingDiagnostics() {
    _ = recordedDiagnostics
}

/// The diagnostics of `kind` about responses created in files whose `#fileID` starts with
/// `prefix`, such as `ResponseKitServices/` for the whole services library.
func diagnostics(_ kind: ResponseDiagnostic.Kind, aboutResponsesCreatedUnder prefix: String) -> [ResponseDiagnostic] {
    recordedDiagnostics.values.filter { $0.kind == kind && $0.file.hasPrefix(prefix) }
}
