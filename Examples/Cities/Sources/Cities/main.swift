import CitiesCore
import ExampleSupport
import Foundation

// A list of cities kept in a JSON file, in the callback style: the main thread runs the main
// queue; the file is read and written on the gateway's queue; the presenter updates the screen.
//
//     swift run Cities                                 # the list in ~/.local/share/ResponseKitExamples/Cities
//     printf 'add Paris\nlist\n' | swift run Cities --file /tmp/cities.json

var arguments = CommandLine.arguments.dropFirst()
var path = DataDirectory.path(for: "Cities") + "/cities.json"
while let argument = arguments.popFirst() {
    if argument == "--file", let file = arguments.popFirst() {
        path = file
    } else {
        ConsoleOutput.standardError.writeLine("usage: Cities [--file PATH]   (then type 'help')")
        exit(64)
    }
}

ConsoleOutput.standardOutput.writeLine("Cities, kept in \(path). Type 'help' for the commands.")
let app = CitiesApp(gateway: FileCitiesGateway(path: path), input: ConsoleInput(), output: .standardOutput)
app.onFinish = { exit(0) }
app.start()
MainRunLoop.run()
