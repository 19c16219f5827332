import ExampleSupport
import ResponseKitDemoLoadCore
import ResponseKitLoad
import Testing

struct LoadArgumentsTests {
    @Test func aTargetAlone_runsA5SecondClosedLoopWith64InFlight_afterA1SecondWarmUp() {
        #expect(LoadArguments.parse(["signin"]) == .run(LoadArguments(target: .signIn)))
        let defaults = LoadArguments(target: .signIn)
        #expect(defaults.mode == .closedLoop(inFlight: 64))
        #expect(defaults.length == .duration(.seconds(5)))
        #expect(defaults.warmUp == .duration(.seconds(1)))
        #expect(defaults.latency == .milliseconds(10))
        #expect(!defaults.json && !defaults.answersOnMain && defaults.dataDirectory == nil)
    }

    @Test func everyOption_isRead() throws {
        var expected = LoadArguments(target: .addCity)
        expected.mode = .openLoop(perSecond: 250.5)
        expected.length = .requests(2_000)
        expected.warmUp = .duration(.milliseconds(500))
        expected.latency = .milliseconds(3)
        expected.answersOnMain = true
        expected.dataDirectory = "/tmp/load"
        expected.json = true
        expected.histogramLogPath = "run.hlog"
        expected.percentileDistributionPath = "run.hgrm"
        expected.interval = .milliseconds(250)
        expected.thresholds = [try LoadThreshold("p99 < 50ms"), try LoadThreshold("failed < 0.1%")]
        expected.baselinePath = "main.json"
        expected.minimumEffect = 0.05

        let parsed = LoadArguments.parse([
            "add-city", "--rate", "250.5", "--requests", "2000", "--warm-up", "0.5", "--latency", "3", "--on", "main",
            "--data-dir", "/tmp/load", "--json", "--hlog", "run.hlog", "--hgrm", "run.hgrm", "--interval", "0.25",
            "--threshold", "p99 < 50ms", "--threshold", "failed < 0.1%", "--baseline", "main.json", "--min-effect", "5",
        ])

        #expect(parsed == .run(expected))
    }

    @Test func theLastModeAndLength_win() {
        var expected = LoadArguments(target: .echo)
        expected.mode = .closedLoop(inFlight: 8)
        expected.length = .duration(.seconds(2))

        let parsed = LoadArguments.parse([
            "echo", "--rate", "10", "--in-flight", "8", "--requests", "5", "--duration", "2",
        ])

        #expect(parsed == .run(expected))
    }

    @Test(
        arguments: [
            ([], "say what to load: signin, add-city, echo or mix"),
            (["login"], "unknown target login"),
            (["echo", "--hlog"], "--hlog needs a file"),
            (
                ["echo", "--threshold", "p99 < soon"],
                "threshold \"p99 < soon\": a latency needs a duration with its unit, such as 50ms (ns, us, ms, s)"
            ),
            (["echo", "--interval", "0"], "--interval needs seconds, at least 0.001, such as 1"),
            (["--json"], "unknown option --json"),
            (["echo", "--bogus"], "unknown option --bogus"),
            (["echo", "extra"], "unexpected argument extra"),
            (["echo", "--in-flight", "0"], "--in-flight needs a whole number of requests, 1 or more"),
            (["echo", "--in-flight", "2.5"], "--in-flight needs a whole number of requests, 1 or more"),
            (["echo", "--rate", "0"], "--rate needs a number of requests a second, more than 0"),
            (["echo", "--rate"], "--rate needs a number of requests a second, more than 0"),
            (["echo", "--duration", "-1"], "--duration needs seconds, such as 5"),
            (["echo", "--requests", "0"], "--requests needs a whole number, 1 or more"),
            (["echo", "--warm-up", "soon"], "--warm-up needs seconds, such as 1"),
            (["echo", "--latency", "nan"], "--latency needs milliseconds, such as 10"),
            (["echo", "--on", "queue"], "--on needs main or immediate"),
            (["echo", "--data-dir"], "--data-dir needs a directory"),
        ] as [([String], String)])
    func aWrongCommandLine_saysWhatIsWrong(arguments: [String], problem: String) {
        #expect(LoadArguments.parse(arguments) == .invalid(problem))
    }

    @Test func help_winsWherever_itIs() {
        #expect(LoadArguments.parse(["echo", "--rate", "5", "-h"]) == .help)
        #expect(LoadArguments.parse(["--help"]) == .help)
    }
}

struct LoadArgumentsStageTests {
    @Test func stages_rampByDefault_stepWithAnEqualsSign_andLastAsLongAsTheyDo_withNoWarmUp() {
        var expected = LoadArguments(target: .echo)
        expected.mode = .openLoopStages([
            .ramp(to: 100, over: .seconds(10)), .step(to: 100, for: .seconds(30)),
            .ramp(to: 0, over: .milliseconds(500)),
        ])
        expected.length = .duration(.milliseconds(40_500))
        expected.warmUp = .duration(.zero)

        #expect(LoadArguments.parse(["echo", "--stages", "10s:100,30:=100,500ms:0"]) == .run(expected))
    }

    @Test func inFlightStages_areAClosedLoop_andAWarmUpGivenComesOutOfTheirLength() {
        var expected = LoadArguments(target: .echo)
        expected.mode = .closedLoopStages([.ramp(to: 8, over: .seconds(120))])
        expected.length = .duration(.seconds(119))
        expected.warmUp = .duration(.seconds(1))

        #expect(LoadArguments.parse(["echo", "--in-flight-stages", "2m:8", "--warm-up", "1"]) == .run(expected))
    }

    @Test(arguments: ["", "10s", "10s:", "10x:5", "10s:-1", "10s:100,,5s:0"])
    func malformedStages_areRejected(spec: String) {
        #expect(
            LoadArguments.parse(["echo", "--stages", spec])
                == .invalid("--stages needs stages such as '10s:100,30s:=100,10s:0'"))
    }

    @Test func aSearch_readsItsLimitAndTop() {
        var expected = LoadArguments(target: .signIn)
        expected.mode = .openLoop(perSecond: 200)
        expected.searchLimit = .milliseconds(50)
        expected.searchTo = 5_000

        #expect(
            LoadArguments.parse(["signin", "--rate", "200", "--search-p99", "50", "--search-to", "5000"])
                == .run(expected))
        #expect(
            LoadArguments.parse(["signin", "--search-p99", "soon"])
                == .invalid("--search-p99 needs milliseconds, such as 50"))
    }
}

struct LoadArgumentsMixTests {
    @Test func aMix_readsItsTargetsAndWeights_thenTheOptions() {
        var expected = LoadArguments(target: .mix)
        expected.mix = [.init(.signIn, weight: 8), .init(.addCity, weight: 2)]
        expected.mode = .openLoop(perSecond: 500)

        #expect(LoadArguments.parse(["mix", "signin:8,add-city:2", "--rate", "500"]) == .run(expected))
    }

    @Test(arguments: [["mix"], ["mix", "signin"], ["mix", "signin:0"], ["mix", "mix:1"], ["mix", "echo:1,echo:2"]])
    func aMalformedMix_isRejected(arguments: [String]) {
        #expect(
            LoadArguments.parse(arguments) == .invalid("mix needs targets and weights, such as signin:8,add-city:2"))
    }
}
