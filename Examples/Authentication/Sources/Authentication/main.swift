import AuthenticationCore
import ExampleSupport
import Foundation

// Authentication through a decorated use case. The view model uses callbacks; this command line
// blocks on each sign-in (on the main thread, which keeps the main queue running meanwhile).
//
//     swift run Authentication                            # a tour of the outcomes
//     swift run Authentication ada@example.com secret     # one sign-in
//     swift run Authentication --token-file /tmp/token ada@example.com secret

var arguments = Array(CommandLine.arguments.dropFirst())
var tokenFile = DataDirectory.path(for: "Authentication") + "/token"
if arguments.first == "--token-file", arguments.count >= 2 {
    tokenFile = arguments[1]
    arguments.removeFirst(2)
}

let attempts: [AuthenticationApp.Attempt]
switch arguments.count {
case 0: attempts = AuthenticationApp.tour
case 2: attempts = [AuthenticationApp.Attempt(email: arguments[0], password: arguments[1])]
default:
    ConsoleOutput.standardError.writeLine("usage: Authentication [--token-file PATH] [<email> <password>]")
    exit(64)
}

let app = AuthenticationApp(tokenFile: tokenFile, output: .standardOutput)
for attempt in attempts {
    try app.run(attempt).value  // the blocking style: wait for the outcome before the next attempt
}
ConsoleOutput.standardOutput.writeLine(app.describeTokenFile())
exit(app.viewModel.user == nil ? 1 : 0)
