import AuthenticationCore
import ExampleSupport
import Foundation

// Authentication through a decorated use case. The view model uses callbacks; this command line
// blocks on each sign-in (on the main thread, which keeps the main queue running meanwhile).
//
//     swift run Authentication                            # a tour of the outcomes
//     swift run Authentication ada@example.com secret     # one sign-in
//     swift run Authentication --token-file /tmp/token ada@example.com secret
//     swift run Authentication --auth-server http://127.0.0.1:8080 ada@example.com secret   # over HTTP

let usage = CommandLineUsage(program: "Authentication", text: AuthenticationArguments.usage)
let options: AuthenticationArguments.Options
switch AuthenticationArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .run(let parsed): options = parsed
case .help: usage.exitShowingHelp()
case .invalid(let problem): usage.exitRejecting(problem)
}
let tokenFile = options.tokenFile ?? DataDirectory.path(for: "Authentication") + "/token"
let attempts =
    options.credentials.map { [AuthenticationApp.Attempt(email: $0[0], password: $0[1])] } ?? AuthenticationApp.tour

let app = AuthenticationApp(tokenFile: tokenFile, output: .standardOutput, authServer: options.authServer)
for attempt in attempts {
    try app.run(attempt).value  // the blocking style: wait for the outcome before the next attempt
}
ConsoleOutput.standardOutput.writeLine(app.describeTokenFile())
exit(app.viewModel.user == nil ? 1 : 0)
