import ExampleSupport
import Foundation
import RegisterActivationCore
import ResponseKitTesting
import Testing

/// The composition root, end to end with a server that answers at once (real time, no latency).
///
/// The app blocks its thread until the answer comes, as on the main thread of the executable; it
/// runs on a thread of its own here, so that no thread of the small cooperative pool is blocked
/// while the server's answer waits for a Dispatch thread.
///
/// A thread does not inherit the test's response checks (a task-local value), so the run is
/// checked on that thread with `ResponseChecks.run`, and each problem it finds is an issue here.
@Suite(.responseChecks)
struct RegisterActivationAppTests {
    let written = Recorder<String>()

    func run(_ arguments: [String]) async -> Int32? {
        guard case .activate(var options) = ActivationArguments.parse(arguments) else { return nil }
        options.latency = .zero
        let app = RegisterActivationApp(output: ConsoleOutput { [written] in written.record($0) }, isTerminal: false)
        let (status, problems) = await withCheckedContinuation { continuation in
            Thread { [options] in
                var status: Int32 = 0
                let problems = ResponseChecks.run { status = app.run(options) }
                continuation.resume(returning: (status, problems))
            }.start()
        }
        for problem in problems { Issue.record("\(problem)") }
        return status
    }

    @Test func rightCredentials_printTheLicenceKey_andExitZero() async {
        let status = await run(["Corner Shop", "ada", "secret", "1"])

        #expect(status == 0)
        #expect(written.values.joined().contains("✔ Register 1 of Corner Shop is active.\n  Licence key: CS-1-5CCD\n"))
    }

    @Test func wrongCredentials_printWhy_andExitOne() async {
        let status = await run(["Corner Shop", "ada", "guess", "1"])

        #expect(status == 1)
        #expect(written.values.joined().hasSuffix("✘ Activation failed.\n  Wrong login or password for this store.\n"))
    }

    @Test func anEmptyField_printsWhichOne_withoutAProgressLine() async {
        let status = await run(["Corner Shop", "ada", "secret", " "])

        #expect(status == 1)
        #expect(written.values == ["✘ Activation failed.\n", "  The register number is empty: please fill it in.\n"])
    }
}
