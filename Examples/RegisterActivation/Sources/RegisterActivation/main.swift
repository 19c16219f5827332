import ExampleSupport
import Foundation
import RegisterActivationCore

// Register activation, in the blocking style: ask, then wait with a spinner.
//
//     swift run RegisterActivation "Corner Shop" ada secret 2
//     swift run RegisterActivation "Corner Shop" ada secret 2 --latency 3 --timeout 1

switch ActivationArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .help:
    ConsoleOutput.standardOutput.writeLine(ActivationArguments.usage)
case .invalid(let problem):
    ConsoleOutput.standardError.writeLine("RegisterActivation: \(problem)\n\(ActivationArguments.usage)")
    exit(64)
case .activate(let options):
    let app = RegisterActivationApp(output: .standardOutput, isTerminal: Terminal.isStandardOutputInteractive)
    exit(app.run(options))
}
