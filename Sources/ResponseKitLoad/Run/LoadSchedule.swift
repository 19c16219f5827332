/// The load over time that a run's ``LoadStage``s describe, in nanoseconds from the run's start:
/// when an open loop's requests are meant to start, and how many lanes a closed loop runs.
///
/// The stages become segments over which the target moves linearly (a step is a segment whose
/// target is constant); after the last stage its target holds for ever.
///
/// An open loop's request *i* (from 0) is meant to start at the time *t* when the integrated rate
/// N(t) = ∫₀ᵗ rate reaches *i*. Over a segment that starts at N = C with rate `a` and ends after
/// `D` at rate `b`, N(C + s) = C + a·s + (b − a)·s² / 2D, so request *i* starts *s* into it, where
/// x = i − C and
///
///     s = 2x / (a + √(a² + 2(b − a)·x / D))
///
/// the root of the quadratic written so that it neither cancels when a ≫ b nor divides by zero
/// when a = b (then s = x / a).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct LoadSchedule {
    /// A part of the schedule over which the target moves linearly.
    struct Segment {
        /// When it starts, in nanoseconds from the run's start.
        var start: Double
        /// How long it lasts, in nanoseconds; infinite for the hold after the last stage.
        var length: Double
        /// The target at its start and at its end.
        var from: Double
        var to: Double
        /// N at its start: the requests meant to start before it (open loop).
        var arrivalsBefore: Double

        /// N(start + s) − N(start), with rates per second and `s` in nanoseconds.
        func arrivals(within s: Double) -> Double {
            guard length.isFinite, from != to else { return from == 0 ? 0 : from * s / 1e9 }
            return (from * s + (to - from) * s * s / (2 * length)) / 1e9
        }

        /// The `s` at which ``arrivals(within:)`` reaches `x`.
        func time(ofArrivals x: Double) -> Double {
            guard x > 0 else { return 0 }
            let a = from / 1e9
            guard length.isFinite, from != to else { return x / a }
            let k = (to - from) / 1e9 / length
            return 2 * x / (a + (a * a + 2 * k * x).squareRoot())
        }
    }

    private(set) var segments: [Segment] = []

    init(_ stages: [LoadStage]) {
        var start = 0.0
        var previous = 0.0
        var arrivals = 0.0
        for stage in stages {
            let length = Double(stage.duration.loadNanoseconds)
            let from = stage.shape == .ramp ? previous : stage.target
            previous = stage.target
            guard length > 0 else { continue }
            let segment = Segment(start: start, length: length, from: from, to: stage.target, arrivalsBefore: arrivals)
            segments.append(segment)
            arrivals += segment.arrivals(within: length)
            start += length
        }
        segments.append(
            Segment(start: start, length: .infinity, from: previous, to: previous, arrivalsBefore: arrivals))
    }

    /// How long the stages last, in nanoseconds.
    var duration: UInt64 { UInt64(segments[segments.count - 1].start) }

    // MARK: - Open loop

    /// N(t): how many requests are meant to start before `t` nanoseconds, as a real number.
    func arrivals(before t: Double) -> Double {
        let segment = segments.last { $0.start <= t } ?? segments[0]
        return segment.arrivalsBefore + segment.arrivals(within: t - segment.start)
    }

    /// How many requests are meant to start in all: infinite unless the last target is 0.
    var totalArrivals: Double {
        segments[segments.count - 1].to > 0 ? .infinity : segments[segments.count - 1].arrivalsBefore
    }

    /// When request `index` is meant to start, in nanoseconds from the run's start; `nil` when
    /// never (``totalArrivals`` is no more than `index`).
    func start(ofArrival index: Int) -> Double? {
        let x = Double(index)
        guard x < totalArrivals else { return nil }
        // The last segment that starts with at most `index` requests before it: a segment at rate
        // 0 has as many before it as the next, which is then taken.
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].arrivalsBefore <= x { low = middle } else { high = middle - 1 }
        }
        let segment = segments[low]
        return segment.start + min(segment.time(ofArrivals: x - segment.arrivalsBefore), segment.length)
    }

    /// The number of requests meant to start before `t`: N(t) rounded up, with a tolerance so
    /// that N = 500.0000001 through rounding counts 500; `Int.max` when unbounded.
    func count(before t: Double) -> Int {
        let n = (min(arrivals(before: t), totalArrivals) - 1e-6).rounded(.up)
        return n < 0x1p62 ? Int(max(n, 0)) : .max
    }

    // MARK: - Closed loop

    /// A closed loop's lanes from a time on: the target rounded to the nearest whole number.
    struct LaneChange: Equatable {
        /// When, in nanoseconds from the run's start.
        var at: UInt64
        /// How many lanes make requests from then on.
        var lanes: Int
    }

    /// The lanes at the start, then every change, in time order: a ramp changes the count each
    /// time its target crosses a half (from 2 to 3 when it reaches 2.5).
    var laneChanges: [LaneChange] {
        func lanes(_ target: Double) -> Int { Int(max(target, 0).rounded()) }
        var changes = [LaneChange(at: 0, lanes: lanes(segments[0].from))]
        for segment in segments {
            let (from, to) = (lanes(segment.from), lanes(segment.to))
            if segment.from == segment.to || !segment.length.isFinite {
                changes.append(LaneChange(at: UInt64(segment.start), lanes: to))
                continue
            }
            changes.append(LaneChange(at: UInt64(segment.start), lanes: from))
            let crossings = from < to ? Array(from..<to) : Array((to..<from).reversed())
            for whole in crossings {
                let half = Double(whole) + 0.5
                let at = segment.start + (half - segment.from) / (segment.to - segment.from) * segment.length
                changes.append(LaneChange(at: UInt64(at.rounded()), lanes: from < to ? whole + 1 : whole))
            }
        }
        // Keep the last change at each time, and only those that change the count.
        var kept: [LaneChange] = []
        for change in changes {
            if let last = kept.last, last.at == change.at { kept.removeLast() }
            if let last = kept.last, last.lanes == change.lanes { continue }
            kept.append(change)
        }
        return kept
    }

    /// The most lanes the stages ever run.
    var maximumLanes: Int { laneChanges.map(\.lanes).max() ?? 0 }
}
