/// Capitalises names for display: `jean-luc PICARD` becomes `Jean-Luc Picard`.
public nonisolated enum NameFormatter {
    /// Each part of a name capitalised (first letter upper case, the rest lower case), where parts
    /// are separated by spaces, hyphens and apostrophes: `o'brien` becomes `O'Brien`. Runs of
    /// spaces become one.
    ///
    /// - Note: `mcdonald` becomes `Mcdonald`: names with inner capitals need the person's own spelling.
    ///
    /// - Parameter parts: the name's parts, such as first and last name.
    /// - Returns: the parts capitalised, joined by one space.
    public static func displayName(_ parts: String...) -> String {
        parts
            .flatMap { $0.split(whereSeparator: \.isWhitespace) }
            .map { capitalise(String($0)) }
            .joined(separator: " ")
    }

    private static func capitalise(_ word: String) -> String {
        var result = ""
        var startsPart = true
        for character in word {
            result += startsPart ? character.uppercased() : character.lowercased()
            startsPart = character == "-" || character == "'" || character == "’"
        }
        return result
    }
}
