import Dispatch
import ExampleSupport
import Foundation
import ResponseKit
import ResponseKitDemoLoadCore
import ResponseKitLoad

// The demo's interactors under load: throughput and latency percentiles, in release.
//
//     swift run -c release ResponseKitDemoLoad signin --in-flight 64 --duration 5
//     swift run -c release ResponseKitDemoLoad signin --rate 2000 --duration 5 --json
//     swift run -c release ResponseKitDemoLoad add-city --in-flight 8 --requests 2000
//     swift run -c release ResponseKitDemoLoad echo --in-flight 64 --duration 5   # the driver's own cost

let usage = CommandLineUsage(program: "ResponseKitDemoLoad", text: LoadArguments.usage)
let arguments: LoadArguments
switch LoadArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .run(let parsed): arguments = parsed
case .help: usage.exitShowingHelp()
case .invalid(let problem): usage.exitRejecting(problem)
}

// Files go to a temporary directory unless --data-dir says otherwise; kept until the report is out.
let temporary = arguments.dataDirectory == nil ? TemporaryDirectory() : nil
let dataDirectory = arguments.dataDirectory ?? temporary!.path
let driver = LoadDriver(arguments.mode, for: arguments.length, warmUp: arguments.warmUp)

/// Runs the load, prints the report and exits; the answers on `.main` need the main queue, which
/// `dispatchMain()` services below.
func run<Value>(_ request: @escaping @Sendable (Int) -> Response<Value>) {
    driver.run(on: .main, request).onResult { result in
        switch result {
        case .success(let report):
            ConsoleOutput.standardOutput.writeLine(arguments.json ? report.json : report.table)
            withExtendedLifetime(temporary) {}
            exit(0)
        case .failure(let error):
            ConsoleOutput.standardError.writeLine("ResponseKitDemoLoad: \(error)")
            exit(1)
        }
    }
}

switch arguments.target {
case .signIn: run(DemoLoadTarget.signIn(dataDirectory: dataDirectory, latency: arguments.latency))
case .addCity: run(DemoLoadTarget.addCity(dataDirectory: dataDirectory))
case .echo: run(DemoLoadTarget.echo(on: arguments.answersOnMain ? .main : .immediate))
}
dispatchMain()
