import Dispatch
import ResponseKitDemoLoadCore

// The demo's interactors under load: throughput and latency percentiles, in release.
//
//     swift run -c release ResponseKitDemoLoad signin --in-flight 64 --duration 5
//     swift run -c release ResponseKitDemoLoad signin --rate 2000 --duration 5 --json
//     swift run -c release ResponseKitDemoLoad add-city --in-flight 8 --requests 2000
//     swift run -c release ResponseKitDemoLoad echo --in-flight 64 --duration 5   # the driver's own cost
//
// The same command is `swift run -c release ResponseBenchmarks load …`.
DemoLoadCommand.start(Array(CommandLine.arguments.dropFirst()), program: "ResponseKitDemoLoad")
dispatchMain()
