import CitiesCore
import ExampleSupport
import Foundation

// A list of cities kept in a JSON file, in the callback style: the main thread runs the main
// queue; the file is read and written on the gateway's queue; the presenter updates the screen.
//
//     swift run Cities                                 # the list in ~/.local/share/ResponseKitExamples/Cities
//     printf 'add Paris\nlist\n' | swift run Cities --file /tmp/cities.json

let usage = CommandLineUsage(program: "Cities", text: CitiesArguments.usage)
var path = DataDirectory.path(for: "Cities") + "/cities.json"
switch CitiesArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .run(let file): path = file ?? path
case .help: usage.exitShowingHelp()
case .invalid(let problem): usage.exitRejecting(problem)
}
do {
    try AtomicFile.removeInterruptedWrites(of: path)  // what a crash during a save left
} catch {
    ConsoleOutput.standardError.writeLine("Cities: \(error)")
}

ConsoleOutput.standardOutput.writeLine("Cities, kept in \(path). Type 'help' for the commands.")
let app = CitiesApp(gateway: FileCitiesGateway(path: path), input: ConsoleInput(), output: .standardOutput)
app.onFinish = { exit(0) }
app.start()
MainRunLoop.run()
