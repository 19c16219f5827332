import Foundation

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LatencyHistogram {
    /// The percentile distribution in HdrHistogram's `.hgrm` text, as its
    /// `outputPercentileDistribution` prints it: the value at ever finer percentiles (five steps
    /// per halving of the distance to 100 %), each with the count up to it and `1/(1-percentile)`,
    /// then the mean, the standard deviation, the maximum and the count. HdrHistogram's plotter
    /// (`plotFiles.html`) and the tools that read wrk2's output read it.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// var histogram = LatencyHistogram()
    /// for milliseconds in 1...100 { histogram.record(.milliseconds(milliseconds)) }
    /// let hgrm = histogram.percentileDistribution()    // values in milliseconds
    /// #expect(hgrm.hasPrefix("       Value     Percentile TotalCount 1/(1-Percentile)"))
    /// ```
    ///
    /// Byte for byte what HdrHistogram's Java library prints for the same counters: values are
    /// each bucket's highest equivalent value, and the mean and deviation are taken from the
    /// buckets' middles, as HdrHistogram takes them (``mean`` is exact instead).
    ///
    /// - Parameters:
    ///   - unit: the unit values are printed in; milliseconds, as wrk2 prints them, by default.
    ///   - ticksPerHalfDistance: steps between 0 and 50 %, then between 50 and 75 %, and so on.
    /// - Returns: the text, one line per step, ending with a newline; only the header when empty.
    public func percentileDistribution(unit: Duration = .milliseconds(1), ticksPerHalfDistance: Int = 5) -> String {
        let scale = Swift.max(Double(unit.loadNanoseconds), 1)
        let digits = Self.hdrSignificantDigits
        // HdrHistogram's "%12s %14s %10s %14s\n\n" of the four titles.
        var text = "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"
        let counts = countsByBucket
        let total = count
        let ticks = Double(Swift.max(ticksPerHalfDistance, 1))
        // Java's %f, not printf's: the two round ties of the shortest decimal differently. Values,
        // and the mean, deviation and maximum below, are all "%12.{digits}f".
        let valueText = JavaFixedPoint(precision: digits, width: 12)
        let fractionText = JavaFixedPoint(precision: 12, width: 2)
        let inverseText = JavaFixedPoint(precision: 2, width: 14)
        if total > 0 {
            var level = 0.0
            var reachedLast = false
            var index = 0
            var runningCount: UInt64 = 0
            var freshIndex = true
            // HdrHistogram's PercentileIterator: report the bucket where the running count first
            // reaches the level, then move the level on; one last step at 100 %.
            while true {
                if runningCount >= total {
                    guard !reachedLast else { break }
                    level = 100
                    reachedLast = true
                }
                var reported = false
                while index < counts.count {
                    let countHere = counts[index]
                    if freshIndex {
                        runningCount += countHere
                        freshIndex = false
                    }
                    if countHere != 0, 100 * Double(runningCount) / Double(total) >= level {
                        let value = Double(Self.highestEquivalentValue(ofBucket: index)) / scale
                        let fraction = level / 100
                        // "%12.{digits}f %2.12f %10d %14.2f", the last column left out at 100 %.
                        text += valueText.format(value) + " " + fractionText.format(fraction) + " "
                        text += String(format: "%10lld", Int64(runningCount))
                        text += level != 100 ? " " + inverseText.format(1 / (1 - fraction)) + "\n" : "\n"
                        let gap = 100 - level
                        if gap > 0 {
                            let halvings = Int64(log(100 / gap) / log(2))
                            let reportingTicks = ticks * pow(2, Double(halvings + 1))
                            level += 100 / reportingTicks
                        }
                        reported = true
                        break
                    }
                    index += 1
                    freshIndex = true
                }
                if !reported { break }
            }
        }
        let (mean, deviation) = bucketMeanAndDeviation
        text += "#[Mean    = \(valueText.format(mean / scale)), "
        text += "StdDeviation   = \(valueText.format(deviation / scale))]\n"
        let maximum = total > 0 ? Double(Self.highestEquivalentValue(of: exactFigures.maximum)) : 0
        text += "#[Max     = \(valueText.format(maximum / scale)), "
        text += "Total count    = \(String(format: "%12lld", Int64(total)))]\n"
        text += String(
            format: "#[Buckets = %12ld, SubBuckets     = %12ld]\n", Self.hdrBucketCount, 2 * Self.subBucketCount)
        return text
    }

    /// How many buckets HdrHistogram has for this layout, up to its largest trackable value.
    static let hdrBucketCount = 56

    /// The mean and the standard deviation as HdrHistogram computes them, from the buckets'
    /// middles.
    private var bucketMeanAndDeviation: (mean: Double, deviation: Double) {
        guard count > 0 else { return (0, 0) }
        let counts = countsByBucket
        var sum = 0.0
        for index in counts.indices where counts[index] > 0 {
            sum += Double(Self.medianValue(ofBucket: index)) * Double(counts[index])
        }
        let mean = sum / Double(count)
        var squares = 0.0
        for index in counts.indices where counts[index] > 0 {
            let deviation = Double(Self.medianValue(ofBucket: index)) - mean
            squares += deviation * deviation * Double(counts[index])
        }
        return (mean, (squares / Double(count)).squareRoot())
    }
}
