import ExampleSupport
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct InputEchoTests {
    @Test func ordinaryInput_isShownAsItIs() {
        #expect(InputEcho.display("New York") == "New York")
        #expect(InputEcho.display("São Paulo, 東京, 👩‍👩‍👧") == "São Paulo, 東京, 👩‍👩‍👧")
    }

    @Test func controlCharacters_areShownEscaped() {
        #expect(InputEcho.display("a\0b") == "a\\0b")
        #expect(InputEcho.display("\u{1B}[2Jgone") == "\\u{1B}[2Jgone")
        #expect(InputEcho.display("tab\there\nnext\rback") == "tab\\there\\nnext\\rback")
        #expect(InputEcho.display("\u{7F}\u{9B}") == "\\u{7F}\\u{9B}")
    }

    @Test func charactersThatReorderOrBreakTheLine_areShownEscaped() {
        #expect(InputEcho.display("abc\u{202E}fed") == "abc\\u{202E}fed")
        #expect(InputEcho.display("one\u{2028}two") == "one\\u{2028}two")
    }

    @Test func longInput_isCutAfterTheLimit_withItsSizeInBytes() {
        let megabyte = String(repeating: "a", count: 1 << 20)

        let shown = InputEcho.display(megabyte)

        #expect(shown == String(repeating: "a", count: InputEcho.limit) + "…(1048576 bytes)")
    }

    @Test func inputOfExactlyTheLimit_isNotCut() {
        let input = String(repeating: "b", count: InputEcho.limit)

        #expect(InputEcho.display(input) == input)
    }

    @Test func oneCharacterOfAMillionCombiningMarks_isCutToo() {
        let zalgo = "e" + String(repeating: "\u{301}", count: 1_000_000)

        #expect(InputEcho.display(zalgo, limit: 3) == "e\u{301}\u{301}…(2000001 bytes)")
    }
}
