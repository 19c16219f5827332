import CleanSwiftSceneCore
import ExampleSupport
import Foundation

// A Clean Swift (VIP) scene at the command line: view controller -> interactor -> presenter ->
// view controller, with a worker and a router to a second scene.
//
//     swift run CleanSwiftScene
//     printf 'show 2\nback\nshow 9\n' | swift run CleanSwiftScene

let usage = CommandLineUsage(
    program: "CleanSwiftScene", text: "usage: CleanSwiftScene   (then type 'help'; no options but --help)")
switch CommandLineRequest.parsingNoArguments(Array(CommandLine.arguments.dropFirst())) {
case .run: break
case .help: usage.exitShowingHelp()
case .invalid(let problem): usage.exitRejecting(problem)
}

ConsoleOutput.standardOutput.writeLine("Contacts, a Clean Swift scene. Type 'help' for the commands.")
let app = ContactsApp(input: ConsoleInput(), output: .standardOutput)
app.onFinish = { exit(0) }
app.start()
MainRunLoop.run()
