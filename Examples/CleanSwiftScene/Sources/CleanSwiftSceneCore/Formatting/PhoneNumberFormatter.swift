/// Formats phone numbers for display, whatever punctuation they were typed with.
public nonisolated enum PhoneNumberFormatter {
    /// The number in the North American style when it is one, otherwise as typed.
    ///
    /// | Typed | Shown |
    /// | --- | --- |
    /// | `2125550199`, `212.555.0199` | `(212) 555-0199` |
    /// | `+1 212 555 0199`, `12125550199` | `+1 (212) 555-0199` |
    /// | `5550199` | `555-0199` |
    /// | `+44 20 7946 0018` (any other) | `+44 20 7946 0018`, spaces tidied |
    /// | empty | `no phone number` |
    ///
    /// - Parameter typed: the number as stored.
    /// - Returns: the number for display.
    public static func displayNumber(_ typed: String) -> String {
        let digits = Array(typed.filter(\.isASCIIDigit))
        let hasPlus = typed.trimmingWhitespace().hasPrefix("+")
        switch digits.count {
        case 0:
            return "no phone number"
        case 7 where !hasPlus:
            return "\(String(digits[0..<3]))-\(String(digits[3..<7]))"
        case 10 where !hasPlus:
            return northAmerican(digits[...])
        case 11 where digits[0] == "1":
            return "+1 " + northAmerican(digits[1...])
        default:
            return typed.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
    }

    private static func northAmerican(_ digits: ArraySlice<Character>) -> String {
        let digits = Array(digits)
        return "(\(String(digits[0..<3]))) \(String(digits[3..<6]))-\(String(digits[6..<10]))"
    }
}

nonisolated extension Character {
    /// Whether this is one of `0` to `9` (not any Unicode digit).
    var isASCIIDigit: Bool {
        ("0"..."9").contains(self)
    }
}

nonisolated extension String {
    /// The string without leading and trailing whitespace.
    func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
        else {
            return ""
        }
        return String(self[start...end])
    }
}
