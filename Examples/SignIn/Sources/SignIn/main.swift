import ExampleSupport
import Foundation
import SignInCore

// Sign in / sign out, in the callback style: the main thread runs the main queue, and the
// presenter's callbacks update the screen there.
//
//     swift run SignIn
//     printf 'signin ada secret\nsignout\n' | swift run SignIn

let usage = CommandLineUsage(program: "SignIn", text: "usage: SignIn   (then type 'help'; no options but --help)")
switch CommandLineRequest.parsingNoArguments(Array(CommandLine.arguments.dropFirst())) {
case .run: break
case .help: usage.exitShowingHelp()
case .invalid(let problem): usage.exitRejecting(problem)
}

let app = SignInApp(input: ConsoleInput(), output: .standardOutput)
app.onFinish = { exit(0) }
app.start()
MainRunLoop.run()
