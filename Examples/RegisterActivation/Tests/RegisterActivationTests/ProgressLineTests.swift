import ExampleSupport
import RegisterActivationCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct ProgressLineTests {
    let written = Recorder<String>()

    func makeLine(isTerminal: Bool) -> ProgressLine {
        ProgressLine(
            message: "Activating", output: ConsoleOutput { [written] in written.record($0) }, isTerminal: isTerminal)
    }

    @Test func onATerminal_redrawsASpinnerInPlace_withTheTimeWaited_thenErasesIt() {
        let line = makeLine(isTerminal: true)

        line.begin()
        line.tick(frame: 1, waited: .milliseconds(100))
        line.tick(frame: 15, waited: .milliseconds(1500))
        line.end()

        #expect(written.values == ["| Activating…", "\r/ Activating… 0.1 s", "\r\\ Activating… 1.5 s", "\r\u{1B}[K"])
    }

    @Test func inAPipe_writesOnePlainLine_andNoCarriageReturns() {
        let line = makeLine(isTerminal: false)

        line.begin()
        line.tick(frame: 1, waited: .milliseconds(100))
        line.tick(frame: 2, waited: .milliseconds(200))
        line.end()

        #expect(written.values == ["Activating… (waiting for the server)\n"])
    }
}
