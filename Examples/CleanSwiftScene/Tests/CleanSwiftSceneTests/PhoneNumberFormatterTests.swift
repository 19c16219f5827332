import CleanSwiftSceneCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct PhoneNumberFormatterTests {
    @Test(arguments: [
        ("2125550199", "(212) 555-0199"),
        ("212.555.0199", "(212) 555-0199"),
        ("(212) 555 0199", "(212) 555-0199"),
        ("+1 212 555 0199", "+1 (212) 555-0199"),
        ("12125550199", "+1 (212) 555-0199"),
        ("555 0199", "555-0199"),
    ])
    func formatsNorthAmericanNumbers_whateverThePunctuation(typed: String, shown: String) {
        #expect(PhoneNumberFormatter.displayNumber(typed) == shown)
    }

    @Test(arguments: [
        ("+44 20 7946 0018", "+44 20 7946 0018"), ("  +33  1 23 45 67 89 ", "+33 1 23 45 67 89"),
        ("+2125550199", "+2125550199"),
    ])
    func showsOtherNumbersAsTyped_withTidySpaces(typed: String, shown: String) {
        #expect(PhoneNumberFormatter.displayNumber(typed) == shown)
    }

    @Test func noDigits_isNoPhoneNumber() {
        #expect(PhoneNumberFormatter.displayNumber(" - ") == "no phone number")
    }
}
