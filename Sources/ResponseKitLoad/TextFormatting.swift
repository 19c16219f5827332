// Numbers and durations as the report's table and the progress line show them to people.

extension BinaryInteger {
    /// The number with a comma between groups of three digits: `1,234,567`.
    var grouped: String {
        let digits = String(magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }
}

extension UInt64 {
    /// A duration in nanoseconds with three significant digits and a unit: `850 ns`, `12.3 µs`,
    /// `1.02 ms`, `5.00 s`.
    var latencyText: String {
        guard self >= 1000 else { return "\(self) ns" }
        let units: [(String, Double)] = [("µs", 1e3), ("ms", 1e6), ("s", 1e9)]
        let (unit, scale) = units.last { Double(self) >= $0.1 } ?? units[0]
        let value = Double(self) / scale
        // Three significant digits: 1.23, 12.3, 123 (and 1,234 s for a long run).
        let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
        return "\(value.fixed(decimals)) \(unit)"
    }
}

extension Double {
    /// The number rounded to `decimals` places, with exactly that many: `1.50`.
    func fixed(_ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((self * scale).rounded())
        guard decimals > 0 else { return scaled.grouped }
        let whole = scaled / Int(scale)
        let fraction = String(abs(scaled % Int(scale)))
        return "\(whole.grouped).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }
}

extension String {
    /// The string followed by spaces up to `width` characters, and at least one.
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: Swift.max(1, width - count))
    }

    /// The string without spaces at its end.
    var trailingSpacesRemoved: String {
        String(self[..<(lastIndex { $0 != " " }.map { index(after: $0) } ?? startIndex)])
    }
}
