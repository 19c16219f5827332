/// The figures of one variant over the repetitions of a run.
struct Summary: Codable {
    let median: Double
    let minimum: Double
    let maximum: Double
    /// Every repetition's figure, in the order they were taken.
    let samples: [Double]

    /// Summarises at least one sample. With an even count the median is the mean of the middle two.
    init(samples: [Double]) {
        precondition(!samples.isEmpty, "a summary needs at least one sample")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
        self.samples = samples
    }
}
