/// One benchmark: a ResponseKit variant, the hand-written floor it is measured against, and
/// optional alternatives (Swift concurrency) shown for context.
///
/// Each variant runs `operations` operations and returns one figure per operation in ``unit``
/// (nanoseconds for timed workloads, bytes or objects for memory ones). The runner repeats that
/// and reports the median, minimum and maximum.
struct Workload {
    /// The short name used by `--filter` and in the issue: `W1`, `W7/64`, `M1`.
    let id: String
    /// What one operation does, in a few words.
    let title: String
    /// What the figures count.
    let unit: Unit
    /// Operations per repetition in a full run.
    let operations: Int
    /// Operations in the single `--smoke` repetition.
    let smokeOperations: Int
    /// Repetitions in a full run, unless `--repetitions` says otherwise.
    var repetitions = 7
    /// Whether to run each variant once, unmeasured, before the repetitions.
    var warmsUp = true
    /// The goal for ResponseKit, if the issue sets one.
    let target: Target?
    /// The most heap allocations per operation ResponseKit's variant may make (everything its
    /// operation allocates, on every thread: responses, resolvers, closure contexts, Dispatch's
    /// blocks). Every run counts; CI's smoke run fails above it. `nil` for the memory workloads.
    var allocationBudget: Double? = nil
    /// Operations in the allocation-counting pass: enough that the harness's own few
    /// allocations per pass round away.
    var allocationCountOperations = 2_000
    /// ResponseKit's side; `nil` while the engine lacks what the workload needs.
    let responseKit: Variant?
    /// Why ``responseKit`` is `nil`.
    var missingNote: String? = nil
    /// The thinnest hand-written equivalent; ratios are taken against it.
    let floor: Variant
    /// Other ways to do the same thing, reported with their ratio to the floor.
    var alternatives: [Variant] = []

    /// Every variant, ResponseKit first.
    var variants: [Variant] {
        (responseKit.map { [$0] } ?? []) + [floor] + alternatives
    }
}

/// One way of doing a workload's operation.
struct Variant {
    /// Which column the variant's figures go in.
    enum Role: String, Codable {
        case responseKit, floor, alternative
    }

    let name: String
    let role: Role
    /// Caps the operations per repetition for a variant much slower than the others, so that it
    /// does not dominate the run time. Figures are per operation, so they stay comparable.
    var maximumOperations: Int? = nil
    /// For a workload that delivers on the main queue (W6, W7): the variant's work for a number of
    /// operations. A `dispatchMain` workload's child process finds its variant and runs this.
    var mainQueueWork: (@MainActor (_ operations: Int) -> MainQueueWork)? = nil
    /// Counts the heap allocations per operation of that many operations itself, for a variant
    /// that runs in a child process, which the harness's counter does not see. `nil`: the harness
    /// counts while ``run`` runs.
    var countAllocations: (@MainActor (_ operations: Int) -> Double?)? = nil
    /// Runs `operations` operations and returns the figure per operation, in the workload's unit.
    let run: @MainActor (_ operations: Int) -> Double
}

/// What a workload's figures count.
enum Unit: String, Codable {
    case nanosecondsPerOperation = "ns/op"
    case nanosecondsPerElement = "ns/element"
    case nanosecondsPerCallback = "ns/callback"
    case nanosecondsPerRequest = "ns/request"
    case bytesPerResponse = "B/response"
    case bytesPerTask = "B/task"
    case objectsPerResponse = "objects/response"
    case objectsPerOperation = "objects/op"

    /// Whether the figures are times, so that a rate (per second) means something.
    var isTime: Bool {
        rawValue.hasPrefix("ns/")
    }
}

/// A goal from the issue: a ratio to the floor measured in the same run, or an absolute bound.
struct Target: Codable {
    enum Kind: String, Codable {
        /// ResponseKit's median divided by the floor's median must not exceed `value`.
        case ratio
        /// ResponseKit's median must not exceed `value`, in the workload's unit.
        case atMost
    }

    let kind: Kind
    let value: Double

    static func ratio(_ value: Double) -> Target { Target(kind: .ratio, value: value) }
    static func atMost(_ value: Double) -> Target { Target(kind: .atMost, value: value) }

    /// Whether ResponseKit's median meets the goal, given the floor's median.
    func isMet(responseKit: Double, floor: Double) -> Bool {
        switch kind {
        case .ratio: responseKit / floor <= value
        case .atMost: responseKit <= value
        }
    }
}
