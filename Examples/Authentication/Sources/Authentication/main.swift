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

let usage = "usage: Authentication [--token-file PATH] [--auth-server URL] [<email> <password>]"
var arguments = Array(CommandLine.arguments.dropFirst())
var tokenFile = DataDirectory.path(for: "Authentication") + "/token"
var authServer: URL?
options: while arguments.count >= 2 {
    switch arguments[0] {
    case "--token-file": tokenFile = arguments[1]
    case "--auth-server":
        guard let url = HTTPAuthenticationAPI.baseURL(parsing: arguments[1]) else {
            let problem = "--auth-server needs an http:// or https:// URL, such as http://127.0.0.1:8080"
            ConsoleOutput.standardError.writeLine("Authentication: \(problem)\n\(usage)")
            exit(64)
        }
        authServer = url
    default: break options
    }
    arguments.removeFirst(2)
}

let attempts: [AuthenticationApp.Attempt]
switch arguments.count {
case 0: attempts = AuthenticationApp.tour
case 2: attempts = [AuthenticationApp.Attempt(email: arguments[0], password: arguments[1])]
default:
    ConsoleOutput.standardError.writeLine(usage)
    exit(64)
}

let app = AuthenticationApp(tokenFile: tokenFile, output: .standardOutput, authServer: authServer)
for attempt in attempts {
    try app.run(attempt).value  // the blocking style: wait for the outcome before the next attempt
}
ConsoleOutput.standardOutput.writeLine(app.describeTokenFile())
exit(app.viewModel.user == nil ? 1 : 0)
