import Foundation

// `swift run -c release ResponseBenchmarks [--smoke] [--json] [--filter W1] …`; see Benchmarks/README.md.
// The main thread runs everything: workloads that deliver on the main queue service it from here,
// with `RunLoop.main`. The `dispatchMain` workloads start this executable again with a private
// flag (DispatchMainChild), and there the main thread parks in `dispatchMain()`.
if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.first == DispatchMainChild.flag {
        DispatchMainChild.serve(Array(arguments.dropFirst()))
    }
    exit(BenchmarkCommand.run(arguments: arguments))
} else {
    FileHandle.standardError.write(Data("ResponseBenchmarks needs macOS 15 or later (Synchronization's Mutex)\n".utf8))
    exit(1)
}
