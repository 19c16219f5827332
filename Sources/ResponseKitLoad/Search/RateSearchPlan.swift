/// Which rate a ``LoadRateSearch`` tries next: a plain struct, passed from step to step, whose
/// transitions return what to do.
///
/// It doubles the rate from `from` until a step fails (or `to` passes), then bisects between the
/// highest rate that passed and the lowest that failed, on a log scale, until they are within
/// `precision` of each other. A step that passes with its percentile within `margin` of the limit
/// is run again, and its rate passes only if the rerun passes too: one lucky step near the limit
/// does not make the answer.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct RateSearchPlan {
    /// What the search does next.
    enum Action: Equatable {
        /// Run a step at this rate.
        case run(rate: Double)
        /// Stop: the highest rate that passed, if any did.
        case finish(highestPassingRate: Double?)
    }

    let from: Double
    let to: Double
    let precision: Double
    /// The highest rate that passed, confirmed when near the limit.
    private(set) var passing: Double?
    /// The lowest rate that failed.
    private(set) var failing: Double?
    /// A rate that passed near the limit once, to run again.
    private(set) var confirming: Double?

    init(from: Double, to: Double, precision: Double) {
        self.from = from
        self.to = to
        self.precision = precision
    }

    /// The next step, or the end of the search.
    func next() -> Action {
        if let confirming { return .run(rate: confirming) }
        guard let failing else {
            guard let passing else { return .run(rate: from) }
            return passing >= to ? .finish(highestPassingRate: passing) : .run(rate: min(passing * 2, to))
        }
        guard let passing else { return .finish(highestPassingRate: nil) }
        if failing / passing <= 1 + precision { return .finish(highestPassingRate: passing) }
        return .run(rate: (passing * failing).squareRoot())
    }

    /// The step at `rate` passed or not; `isNearLimit` when its percentile came within the
    /// margin of the limit. Returns whether the step is a rerun.
    mutating func record(rate: Double, passed: Bool, isNearLimit: Bool) -> Bool {
        let isRerun = confirming == rate
        confirming = nil
        if passed, isNearLimit, !isRerun {
            confirming = rate
        } else if passed {
            passing = max(passing ?? rate, rate)
        } else {
            failing = min(failing ?? rate, rate)
        }
        return isRerun
    }
}
