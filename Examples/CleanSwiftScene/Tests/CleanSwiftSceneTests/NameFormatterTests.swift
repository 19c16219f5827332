import CleanSwiftSceneCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct NameFormatterTests {
    @Test(arguments: [
        (["ada", "LOVELACE"], "Ada Lovelace"),
        (["jean-luc", "picard"], "Jean-Luc Picard"),
        (["mary", "o'brien"], "Mary O'Brien"),
        (["  grace ", "  hopper"], "Grace Hopper"),
        (["ÉMILIE", "du châtelet"], "Émilie Du Châtelet"),
    ])
    func capitalisesEachPartOfTheName(parts: [String], expected: String) {
        #expect(NameFormatter.displayName(parts[0], parts[1]) == expected)
    }

    @Test func innerCapitalsAreNotGuessed() {
        #expect(NameFormatter.displayName("ronald", "mcdonald") == "Ronald Mcdonald")
    }

    @Test func anEmptyNameStaysEmpty() {
        #expect(NameFormatter.displayName("", " ") == "")
    }
}
