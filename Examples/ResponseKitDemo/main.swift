import ExampleSupport
import Foundation
import ResponseKitDemoCore
import ResponseKitServices

// The ResponseKit demo app: sign in, keep a list of cities, with analytics running as a service.
// ServiceRunner owns the process: `quit`, the end of the input, Ctrl-C and SIGTERM all end in a
// graceful shutdown that flushes analytics and exits with status 0.
//
//     swift run ResponseKitDemo                                        # type 'help'
//     printf 'signin ada secret\nadd Paris\nlist\nquit\n' | swift run ResponseKitDemo
//     swift run ResponseKitDemo --data-dir /tmp/demo "signin ada secret" "add Lima" list
//     swift run ResponseKitDemo --auth-server http://127.0.0.1:8080                # sign in over HTTP
//     ResponseKitDemo --serve --data-dir /var/lib/responsekit-demo    # as a systemd service (README)

let usage = CommandLineUsage(program: "ResponseKitDemo", text: DemoArguments.usage)
let arguments: DemoArguments
switch DemoArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed):
    arguments = parsed
case .failure(let problem):
    if let message = problem.message { usage.exitRejecting(message) }
    usage.exitShowingHelp()
}

let app: DemoApp
do {
    app = try DemoApp(
        dataDirectory: arguments.dataDirectory ?? DataDirectory.path(for: "ResponseKitDemo"),
        input: arguments.serve ? nil : arguments.commands.map(ConsoleInput.scripted) ?? ConsoleInput(),
        output: .standardOutput,
        isInteractive: arguments.commands == nil && Terminal.isStandardInputInteractive,
        authServer: arguments.authServer
    )
} catch let error as UnusableDataDirectory {
    ConsoleOutput.standardError.writeLine("ResponseKitDemo: \(error)")
    exit(UnusableDataDirectory.exitStatus)
}
let runner = ServiceRunner(manager: app.services)
app.onQuit = { runner.requestShutdown() }
runner.run()
