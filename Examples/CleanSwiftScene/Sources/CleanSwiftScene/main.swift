import CleanSwiftSceneCore
import ExampleSupport
import Foundation

// A Clean Swift (VIP) scene at the command line: view controller -> interactor -> presenter ->
// view controller, with a worker and a router to a second scene.
//
//     swift run CleanSwiftScene
//     printf 'show 2\nback\nshow 9\n' | swift run CleanSwiftScene

ConsoleOutput.standardOutput.writeLine("Contacts, a Clean Swift scene. Type 'help' for the commands.")
let app = ContactsApp(input: ConsoleInput(), output: .standardOutput)
app.onFinish = { exit(0) }
app.start()
MainRunLoop.run()
