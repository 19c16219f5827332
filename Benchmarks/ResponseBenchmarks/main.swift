import Foundation
import ResponseKitDemoLoadCore

// `swift run -c release ResponseBenchmarks [--smoke] [--json] [--filter W1] …`; see Benchmarks/README.md.
// `swift run -c release ResponseBenchmarks load signin --in-flight 64`: the demo under the load driver.
// The main thread runs everything: workloads that deliver on the main queue service it from here,
// with `RunLoop.main`. The `dispatchMain` workloads start this executable again with a private
// flag (DispatchMainChild), and there the main thread parks in `dispatchMain()`.
if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.first == DispatchMainChild.flag {
        DispatchMainChild.serve(Array(arguments.dropFirst()))
    }
    // Your interactors' throughput, not ResponseKit's: the demo's under the load driver
    // (README, "Load: your own interactors").
    if arguments.first == "load" {
        DemoLoadCommand.start(Array(arguments.dropFirst()), program: "ResponseBenchmarks load")
        dispatchMain()
    }
    exit(BenchmarkCommand.run(arguments: arguments))
} else {
    FileHandle.standardError.write(Data("ResponseBenchmarks needs macOS 15 or later (Synchronization's Mutex)\n".utf8))
    exit(1)
}
