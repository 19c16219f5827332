import ExampleSupport
import RegisterActivationCore
import ResponseKitTesting
import Testing

/// The composition root, end to end with a server that answers at once (real time, no latency).
struct RegisterActivationAppTests {
    let written = Recorder<String>()

    func run(_ arguments: [String]) -> Int32? {
        guard case .activate(var options) = ActivationArguments.parse(arguments) else { return nil }
        options.latency = .zero
        let app = RegisterActivationApp(output: ConsoleOutput { [written] in written.record($0) }, isTerminal: false)
        return app.run(options)
    }

    @Test func rightCredentials_printTheLicenceKey_andExitZero() {
        let status = run(["Corner Shop", "ada", "secret", "1"])

        #expect(status == 0)
        #expect(written.values.joined().contains("✔ Register 1 of Corner Shop is active.\n  Licence key: CS-1-5CCD\n"))
    }

    @Test func wrongCredentials_printWhy_andExitOne() {
        let status = run(["Corner Shop", "ada", "guess", "1"])

        #expect(status == 1)
        #expect(written.values.joined().hasSuffix("✘ Activation failed.\n  Wrong login or password for this store.\n"))
    }

    @Test func anEmptyField_printsWhichOne_withoutAProgressLine() {
        let status = run(["Corner Shop", "ada", "secret", " "])

        #expect(status == 1)
        #expect(written.values == ["✘ Activation failed.\n", "  The register number is empty: please fill it in.\n"])
    }
}
