import CitiesCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct CitiesArgumentsTests {
    @Test func noArguments_useTheDefaultFile() {
        #expect(CitiesArguments.parse([]) == .run(nil))
    }

    @Test func aFile_isRead() {
        #expect(CitiesArguments.parse(["--file", "/tmp/cities.json"]) == .run("/tmp/cities.json"))
    }

    @Test func helpAndMistakes_areTold() {
        #expect(CitiesArguments.parse(["--help"]) == .help)
        #expect(CitiesArguments.parse(["--file"]) == .invalid("--file needs a path"))
        #expect(CitiesArguments.parse(["--fast"]) == .invalid("unknown option --fast"))
        #expect(CitiesArguments.parse(["Paris"]) == .invalid("unexpected argument Paris"))
    }
}
