/// Input fit to be shown back: cut when long, with control characters escaped.
///
/// Whatever a person (or a pipe) typed is shown again in echoes and messages (`> add Paris`,
/// `Unknown command 'bogus'`, `Paris is already on the list`). Shown raw, a 1 MB line comes
/// back as megabytes, and an escape sequence or a NUL byte goes straight to the terminal, where
/// it can move the cursor, change colours or hide text. So every example shows input through
/// ``display(_:limit:)``:
///
/// ```swift
/// InputEcho.display("Paris")                       // Paris
/// InputEcho.display("\u{1B}[2Jgone\0")             // \u{1B}[2Jgone\0
/// InputEcho.display(String(repeating: "a", count: 1 << 20))
/// // aaaa…aaaa…(1048576 bytes)   (the first 100 characters, then the input's size)
/// ```
///
/// Escaped are the C0 and C1 control characters and DEL (a newline reads `\n`, a tab `\t`, a
/// carriage return `\r`, NUL `\0`, others `\u{1B}`), and the characters that reorder or break
/// lines (bidirectional overrides and isolates, the line and paragraph separators).
public nonisolated enum InputEcho {
    /// How many Unicode scalars of the input are shown before it is cut: 100.
    public static let limit = 100

    /// `input` cut after `limit` Unicode scalars, with a marker giving its size in bytes, and with
    /// its control characters escaped.
    ///
    /// The cut counts Unicode scalars, not characters, so that one character made of a million
    /// combining marks is cut too.
    ///
    /// - Parameters:
    ///   - input: what was typed.
    ///   - limit: how many Unicode scalars to show at most.
    /// - Returns: text that is safe to print on one line of a terminal.
    public static func display(_ input: some StringProtocol, limit: Int = InputEcho.limit) -> String {
        var shown = ""
        var count = 0
        for scalar in input.unicodeScalars {
            if count == limit {
                return shown + "…(\(input.utf8.count) bytes)"
            }
            count += 1
            if let escape = escape(scalar) { shown += escape } else { shown.unicodeScalars.append(scalar) }
        }
        return shown
    }

    /// The escape that stands for `scalar`, or `nil` when it may be shown as it is.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00: "\\0"
        case 0x09: "\\t"
        case 0x0A: "\\n"
        case 0x0D: "\\r"
        case 0x01...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
            "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: nil
        }
    }
}
