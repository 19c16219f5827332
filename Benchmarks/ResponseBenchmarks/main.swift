import Foundation

// `swift run -c release ResponseBenchmarks [--smoke] [--json] [--filter W1] …`; see Benchmarks/README.md.
// The main thread runs everything: workloads that deliver on the main queue service it from here.
if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
    exit(BenchmarkCommand.run(arguments: CommandLine.arguments.dropFirst()))
} else {
    FileHandle.standardError.write(Data("ResponseBenchmarks needs macOS 15 or later (Synchronization's Mutex)\n".utf8))
    exit(1)
}
