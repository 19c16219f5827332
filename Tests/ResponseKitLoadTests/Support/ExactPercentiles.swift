import ResponseKitLoad

/// The nearest-rank percentile of `values`, exactly: what the histogram approximates.
func exactPercentile(_ percentile: Double, of values: [Duration]) -> Duration {
    let sorted = values.sorted()
    let rank = max(1, Int((percentile / 100 * Double(sorted.count) * (1 - 1e-12)).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
}

/// Whether `reported` is within the histogram's stated error of `exact`: never below it (a
/// bucket's highest value is reported, as HdrHistogram does), and above it by at most
/// ``LatencyHistogram/relativeError`` of it.
func isWithinStatedError(_ reported: Duration, of exact: Duration) -> Bool {
    reported >= exact && (reported - exact).inSeconds <= exact.inSeconds * LatencyHistogram.relativeError
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
