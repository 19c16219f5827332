import ResponseKit
import ResponseKitTesting
import Testing

struct DiagnosticsRecorderTests {
    private struct Failure: Error {}

    @Test func recordsADroppedFailure_underTheLineThatCreatedIt() {
        let recorder = DiagnosticsRecorder.shared
        do { _ = Response<Int>.failed(Failure(), on: .immediate) }
        let line: UInt = #line - 1

        #expect(recorder.values(createdAt: line).map(\.kind) == [.unobservedFailure])
        #expect(recorder.values.contains { $0.line == line && $0.file == #fileID })
    }

    @Test func isOneRecorder_forTheWholeProcess() {
        #expect(DiagnosticsRecorder.shared === DiagnosticsRecorder.shared)
    }
}
