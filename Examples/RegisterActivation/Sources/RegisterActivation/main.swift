import ExampleSupport
import Foundation
import RegisterActivationCore

// Register activation, in the blocking style: ask, then wait with a spinner.
//
//     swift run RegisterActivation "Corner Shop" ada secret 2
//     swift run RegisterActivation "Corner Shop" ada secret 2 --latency 3 --timeout 1

let usage = CommandLineUsage(program: "RegisterActivation", text: ActivationArguments.usage)
switch ActivationArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .help:
    usage.exitShowingHelp()
case .invalid(let problem):
    usage.exitRejecting(problem)
case .activate(let options):
    let app = RegisterActivationApp(output: .standardOutput, isTerminal: Terminal.isStandardOutputInteractive)
    exit(app.run(options))
}
