import RegisterActivationCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct ActivationArgumentsTests {
    @Test func fourFields_makeARequest_withTheDefaultLatencyAndTimeout() {
        let parsed = ActivationArguments.parse(["Corner Shop", "ada", "secret", "2"])

        let expected = ActivationOptions(
            request: RegisterActivationRequest(
                storeName: "Corner Shop", login: "ada", password: "secret", registerNumber: "2")
        )
        #expect(parsed == .activate(expected))
        #expect(expected.latency == .milliseconds(1500))
        #expect(expected.timeout == .seconds(5))
    }

    @Test func latencyAndTimeout_areReadInSeconds_anywhereOnTheLine() {
        let parsed = ActivationArguments.parse([
            "--latency", "3", "Corner Shop", "ada", "secret", "2", "--timeout", "0.5",
        ])

        guard case .activate(let options) = parsed else {
            Issue.record("expected options, got \(parsed)")
            return
        }
        #expect(options.latency == .seconds(3))
        #expect(options.timeout == .milliseconds(500))
    }

    @Test func emptyFields_areKept_forTheInteractorToExplain() {
        let parsed = ActivationArguments.parse(["", "ada", "secret", "2"])

        guard case .activate(let options) = parsed else {
            Issue.record("expected options, got \(parsed)")
            return
        }
        #expect(options.request.storeName == "")
    }

    @Test func theWrongNumberOfFields_saysHowManyWereGiven() {
        #expect(
            ActivationArguments.parse(["Corner Shop", "ada"])
                == .invalid("expected 4 fields (store name, login, password, register number), got 2"))
    }

    @Test func anUnknownOption_isNamed() {
        #expect(ActivationArguments.parse(["--fast", "a", "b", "c", "1"]) == .invalid("unknown option --fast"))
    }

    @Test func aLatencyThatIsNotANumber_isExplained() {
        #expect(
            ActivationArguments.parse(["--latency", "soon"])
                == .invalid("--latency soon: give a number of seconds, such as 1.5"))
        #expect(
            ActivationArguments.parse(["a", "b", "c", "1", "--timeout"])
                == .invalid("--timeout needs a number of seconds"))
    }

    @Test func help_isRecognised() {
        #expect(ActivationArguments.parse(["a", "--help"]) == .help)
    }
}
