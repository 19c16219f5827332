import ExampleSupport
import ResponseKit
import ResponseKitTesting
import Testing

/// The command loop with scripted input. Each test awaits the loop's end, which suspends the main
/// actor so the loop's main-queue callbacks run; nothing sleeps.
@Suite(.responseChecks)
@MainActor
struct CommandLoopTests {
    let printed = Recorder<String>()
    var output: ConsoleOutput { ConsoleOutput { [printed] in printed.record($0) } }

    /// Runs the loop over `lines` until it finishes; returns the commands it handed over.
    func run(
        _ lines: [String],
        isInteractive: Bool = false,
        handle: @escaping (String) -> Response<CommandLoop.Step> = { _ in .succeeded(.next, on: .immediate) }
    ) async throws -> [String] {
        var handled: [String] = []
        let (finished, resolver) = Response<Void>.pending(on: .immediate)
        let loop = CommandLoop(input: .scripted(lines), output: output, isInteractive: isInteractive) { line in
            handled.append(line)
            return handle(line)
        }
        loop.onFinish = { resolver.succeed() }
        loop.start()
        try await finished.get()
        #expect(loop.isFinished)
        return handled
    }

    @Test func handsOverEachCommandTrimmed_skippingBlankLines_untilTheInputEnds() async throws {
        #expect(try await run(["list", "", "   ", "  add New York  "]) == ["list", "add New York"])
    }

    @Test func stopsAtQuit_withoutReadingFurther() async throws {
        let handled = try await run(["first", "quit", "never"]) { line in
            .succeeded(line == "quit" ? .quit : .next, on: .immediate)
        }

        #expect(handled == ["first", "quit"])
    }

    @Test func readsTheNextCommandOnlyOnceThePreviousOneIsShown() async throws {
        let input = ConsoleInput.scripted(["slow", "next", "last"])
        let (slow, slowShown) = Response<CommandLoop.Step>.pending()
        let (handedOver, handOver) = Response<Void>.pending(on: .immediate)
        let (finished, finish) = Response<Void>.pending(on: .immediate)
        var handled: [String] = []
        let loop = CommandLoop(input: input, output: output, isInteractive: false) { line in
            handled.append(line)
            guard line == "slow" else { return .succeeded(.next, on: .immediate) }
            handOver.succeed()
            return slow
        }
        loop.onFinish = { finish.succeed() }
        loop.start()
        try await handedOver.get()

        // Reads are served one at a time, in order: had the loop asked for another line while
        // "slow" was still being shown, this read would not get "next".
        #expect(try await input.nextLine().get() == "next")

        slowShown.succeed(.next)
        try await finished.get()
        #expect(handled == ["slow", "last"])
    }

    @Test func whenPiped_echoesEachCommand_andPrintsNoPrompt() async throws {
        _ = try await run(["list"])

        #expect(printed.values == ["> list\n"])
    }

    @Test func whenInteractive_printsAPromptBeforeEachRead_andEndsThePromptLineAtTheEnd() async throws {
        _ = try await run(["list"], isInteractive: true)

        #expect(printed.values == ["> ", "> ", "\n"])
    }

    @Test func aFailedCommand_isPrinted_andTheLoopGoesOn() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "broken" } }

        let handled = try await run(["one", "two"]) { line in
            line == "one" ? .failed(Broken(), on: .immediate) : .succeeded(.next, on: .immediate)
        }

        #expect(handled == ["one", "two"])
        #expect(printed.values == ["> one\n", "error: broken\n", "> two\n"])
    }

    @Test func finish_stopsTheLoop_andCallsOnFinishOnce() {
        var finishes = 0
        let loop = CommandLoop(input: .scripted(["never"]), output: output, isInteractive: false) { _ in
            Issue.record("no command may run after finish()")
            return .succeeded(.next)
        }
        loop.onFinish = { finishes += 1 }

        loop.finish()
        loop.finish()
        loop.start()

        #expect(finishes == 1)
    }

    @Test func echoesAndUnknownCommands_showLongOrHostileInputCut_andEscaped() async throws {
        let hostile = "\u{1B}[2J" + String(repeating: "x", count: 1 << 20)
        _ = try await run([hostile]) { line in
            CommandLoop.Step.unknown(TypedCommand(line), output: output)
        }

        let text = printed.values.joined()
        #expect(text.utf8.count < 400)
        #expect(!text.contains("\u{1B}"))
        #expect(text.hasPrefix("> \\u{1B}[2Jxxx"))
        #expect(text.contains("…(1048580 bytes)'. Type 'help' for the commands.\n"))
    }

    // MARK: - Finishing with a command in flight

    @Test func finishing_whileNoCommandRuns_isDoneAtOnce() {
        let loop = CommandLoop(input: .scripted([]), output: output, isInteractive: false) { _ in
            .succeeded(.next, on: .immediate)
        }

        #expect(loop.finish().isSuccessful)
    }

    @Test func finishing_whileACommandRuns_waitsForIt_andRunsNoFurtherCommand() async throws {
        let (saving, saved) = Response<CommandLoop.Step>.pending()
        let (handedOver, handOver) = Response<Void>.pending(on: .immediate)
        var handled: [String] = []
        let loop = CommandLoop(input: .scripted(["add Paris", "add Lima"]), output: output, isInteractive: false) {
            line in
            handled.append(line)
            handOver.succeed()
            return saving
        }
        loop.start()
        try await handedOver.get()

        let finished = loop.finish()

        #expect(!finished.isDone)
        saved.succeed(.next)
        try await finished.get()
        #expect(handled == ["add Paris"])
        #expect(loop.isFinished)
    }

    @Test func finishing_whileACommandRuns_waitsForIt_evenWhenItFails() async throws {
        let (saving, saveFailed) = Response<CommandLoop.Step>.pending()
        let (handedOver, handOver) = Response<Void>.pending(on: .immediate)
        let loop = CommandLoop(input: .scripted(["add Paris"]), output: output, isInteractive: false) { _ in
            handOver.succeed()
            return saving
        }
        loop.start()
        try await handedOver.get()

        let finished = loop.finish()
        saveFailed.fail(TestFailure())

        try await finished.get()
        #expect(printed.values.last == "error: the save failed\n")
    }
}

private struct TestFailure: Error, CustomStringConvertible {
    var description: String { "the save failed" }
}
