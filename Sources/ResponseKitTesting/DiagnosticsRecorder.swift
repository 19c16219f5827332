import ResponseKit

/// Records every diagnostic ResponseKit reports in the process, for tests that check what was
/// reported (a failure nobody observed, a response resolved twice).
///
/// `ResponseDiagnostics.handler` is one hook for the whole process, and
/// `swift test` runs every test target in one process: two targets that each set the handler to
/// a recorder of their own replace each other's, and one of them misses what it looks for. So
/// every test target uses this one recorder, installed once, the first time ``shared`` is read.
/// Tests run in parallel, so each looks only at diagnostics about responses it created, by the
/// file and line where they were created:
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import Testing
///
/// struct TestError: Error {}
///
/// @Test func aDroppedFailure_isReported() {
///     let recorder = DiagnosticsRecorder.shared          // recording from here on
///     do { _ = Response<Int>.failed(TestError()) }       // created on this line, dropped
///     #expect(recorder.values(createdAt: #line - 1).map(\.kind) == [.unobservedFailure])
/// }
/// ```
///
/// A test that sets `ResponseDiagnostics.handler` itself must put back the one it
/// found, so that recording goes on after it.
///
/// For the problems of one test, prefer the response checks (``ResponseChecksTrait``): they are
/// scoped to the test that made each response, and fail it. Diagnostics they take for a test do
/// not reach this recorder.
public final class DiagnosticsRecorder: Sendable {
    /// The process's recorder; reading it the first time installs it as the diagnostics handler.
    public static let shared: DiagnosticsRecorder = {
        let recorder = DiagnosticsRecorder()
        ResponseDiagnostics.handler = { recorder.diagnostics.record($0) }
        return recorder
    }()

    private let diagnostics = Recorder<ResponseDiagnostic>()

    private init() {}

    /// Every diagnostic recorded since ``shared`` was first read, oldest first.
    public var values: [ResponseDiagnostic] { diagnostics.values }

    /// The diagnostics about responses created at `line` of the file `fileID`.
    ///
    /// - Parameters:
    ///   - line: the line that created the responses.
    ///   - fileID: the file, as `#fileID` names it; the caller's by default.
    /// - Returns: those diagnostics, oldest first.
    public func values(createdAt line: UInt, fileID: String = #fileID) -> [ResponseDiagnostic] {
        values.filter { $0.line == line && $0.file == fileID }
    }
}
