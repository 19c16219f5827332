/// Fixed-point text of a `Double` as Java's `String.format("%w.pf", value)` prints it, for the
/// files HdrHistogram's Java library writes and its users compare byte for byte.
///
/// Java and C round differently. C's `printf` rounds the double's exact binary value; Java rounds
/// the shortest decimal that reads back as the same double, half up. They disagree on ties of
/// that decimal: 0.9997802734375 is stored as 0.99978027343749997…, so `printf("%.12f")` prints
/// 0.999780273437 and Java 0.999780273438. A `.hgrm` printed through `printf` differed from
/// Java's on such a line in a CI run (the latencies are random, so only some runs meet a tie).
///
/// Swift's `description` is that shortest decimal; this rounds it half up, as Java does.
/// (Java 17's digit generator is not always the shortest for magnitudes near 10^23; values this
/// far from a latency are not printed here.)
struct JavaFixedPoint {
    /// Digits after the decimal point.
    let precision: Int
    /// The least width; shorter text is padded with spaces on the left.
    let width: Int

    init(precision: Int, width: Int = 0) {
        self.precision = Swift.max(precision, 0)
        self.width = width
    }

    /// The text of `value`, padded to ``width``.
    func format(_ value: Double) -> String {
        let text = unpadded(value)
        guard text.count < width else { return text }
        return String(repeating: " ", count: width - text.count) + text
    }

    private func unpadded(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
        var (digits, point) = Self.shortestDecimal(of: value.magnitude)
        // Round half up at `precision` digits after the point.
        let kept = point + precision
        if kept < digits.count {
            let roundsUp = kept >= 0 && digits[kept] >= 5
            digits.removeLast(digits.count - Swift.max(kept, 0))
            if roundsUp {
                var index = digits.count - 1
                while index >= 0, digits[index] == 9 {
                    digits[index] = 0
                    index -= 1
                }
                if index >= 0 {
                    digits[index] += 1
                } else {
                    digits.insert(1, at: 0)
                    point += 1
                }
            }
        }
        // Java keeps the sign of a negative value that rounds to zero: "-0.000".
        var text = value.sign == .minus ? "-" : ""
        // The integer part: the digits before the point, zeros past the last digit.
        if point <= 0 {
            text += "0"
        } else {
            for position in 0..<point { text += String(position < digits.count ? digits[position] : 0) }
        }
        guard precision > 0 else { return text }
        text += "."
        for position in point..<(point + precision) {
            text += String(position >= 0 && position < digits.count ? digits[position] : 0)
        }
        return text
    }

    /// The digits of the shortest decimal that reads back as `value` (not negative), without
    /// leading zeros, and where the decimal point falls: `point` digits come before it (a negative
    /// `point` means that many zeros after it first). Zero has no digits.
    static func shortestDecimal(of value: Double) -> (digits: [Int], point: Int) {
        // `description` is the shortest round-tripping decimal: "29.36", "5e-05", "1.2e+17".
        let text = value.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        var digits: [Int] = []
        var point = 0
        var seenPoint = false
        for character in parts[0] {
            if character == "." {
                seenPoint = true
            } else if let digit = character.wholeNumberValue {
                if digits.isEmpty && digit == 0 {
                    // A leading zero before the point adds nothing; after it, it moves the point.
                    if seenPoint { point -= 1 }
                    continue
                }
                digits.append(digit)
                if !seenPoint { point += 1 }
            }
        }
        while digits.last == 0 { digits.removeLast() }
        return digits.isEmpty ? ([], 0) : (digits, point + exponent)
    }
}
