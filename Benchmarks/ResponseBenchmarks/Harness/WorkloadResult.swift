/// What one workload measured: each variant's figures, and ResponseKit's ratio to the floor.
struct WorkloadResult: Codable {
    /// One variant's figures.
    struct Figures: Codable {
        let variant: String
        let role: Variant.Role
        let operations: Int
        let summary: Summary
        /// This variant's median divided by the floor's; `nil` when the floor's is zero.
        let ratioToFloor: Double?
        /// Operations per second at the median, for timed workloads.
        let perSecond: Double?
        /// Heap allocations per operation, on every thread; `nil` where not counted.
        let allocationsPerOperation: Double?
    }

    let id: String
    let title: String
    let unit: Unit
    let repetitions: Int
    let target: Target?
    let figures: [Figures]
    /// ResponseKit's median divided by the floor's; `nil` without a ResponseKit variant.
    let ratio: Double?
    /// Whether ResponseKit meets the target; `nil` without a target or a ResponseKit variant, and
    /// in a smoke run, whose figures mean nothing.
    let isTargetMet: Bool?
    /// Why there is no ResponseKit variant.
    let missingNote: String?
    /// The most allocations per operation ResponseKit may make.
    let allocationBudget: Double?
    /// Whether ResponseKit stays within ``allocationBudget`` (small runs included: a count does
    /// not depend on the machine's load); `nil` without a budget or a count.
    let isWithinAllocationBudget: Bool?

    init(
        workload: Workload,
        repetitions: Int,
        isSmoke: Bool,
        measured: [(variant: Variant, operations: Int, summary: Summary, allocations: Double?)]
    ) {
        guard let floor = measured.first(where: { $0.variant.role == .floor }) else {
            preconditionFailure("\(workload.id) has no floor")
        }
        id = workload.id
        title = workload.title
        unit = workload.unit
        self.repetitions = repetitions
        target = workload.target
        missingNote = workload.missingNote
        let unit = workload.unit
        figures = measured.map { entry in
            Figures(
                variant: entry.variant.name,
                role: entry.variant.role,
                operations: entry.operations,
                summary: entry.summary,
                ratioToFloor: floor.summary.median > 0 ? entry.summary.median / floor.summary.median : nil,
                perSecond: unit.isTime ? 1e9 / entry.summary.median : nil,
                allocationsPerOperation: entry.allocations
            )
        }
        let responseKit = figures.first { $0.role == .responseKit }
        ratio = responseKit?.ratioToFloor
        allocationBudget = workload.allocationBudget
        if let budget = workload.allocationBudget, let counted = responseKit?.allocationsPerOperation {
            // A few hundredths over are the harness's own allocations per pass, not the engine's.
            isWithinAllocationBudget = counted <= budget + 0.05
        } else {
            isWithinAllocationBudget = nil
        }
        if let responseKit, let target = workload.target, !isSmoke {
            isTargetMet = target.isMet(responseKit: responseKit.summary.median, floor: floor.summary.median)
        } else {
            isTargetMet = nil
        }
    }

    var responseKit: Figures? { figures.first { $0.role == .responseKit } }
    var floor: Figures { figures.first { $0.role == .floor }! }
    var alternatives: [Figures] { figures.filter { $0.role == .alternative } }
}
