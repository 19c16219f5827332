/// Runs workloads: a warm-up, then repetitions that interleave the variants.
///
/// Interleaving (ResponseKit, floor, alternatives; then rotated by one) spreads slow drifts of a
/// shared machine (another job starting, frequency changes) over every variant instead of
/// charging them to whichever ran last.
@MainActor
struct Runner {
    let options: Options
    /// Receives one line per workload as it starts, for standard error.
    let progress: (String) -> Void

    func run(_ workload: Workload) -> WorkloadResult {
        let repetitions = options.isSmoke ? 1 : (options.repetitions ?? workload.repetitions)
        let variants = workload.variants
        let operations = variants.map { variant in
            if options.isSmoke { return workload.smokeOperations }
            return min(options.operations ?? workload.operations, variant.maximumOperations ?? .max)
        }
        progress("\(workload.id): \(workload.title) (\(repetitions)× \(variants.map(\.name).joined(separator: ", ")))")

        if workload.warmsUp && !options.isSmoke {
            for (variant, count) in zip(variants, operations) {
                _ = variant.run(count)
            }
        }
        var samples = Array(repeating: [Double](), count: variants.count)
        for repetition in 0..<repetitions {
            for offset in variants.indices {
                let index = (offset + repetition) % variants.count
                samples[index].append(variants[index].run(operations[index]))
            }
        }
        let allocations = variants.map { allocationsPerOperation(of: $0, in: workload) }
        return WorkloadResult(
            workload: workload,
            repetitions: repetitions,
            isSmoke: options.isSmoke,
            measured: variants.indices.map {
                (variants[$0], operations[$0], Summary(samples: samples[$0]), allocations[$0])
            }
        )
    }

    /// Runs the variant `profiled` selects alone, `repetitions` times plus a warm-up, untimed: what a
    /// profiler should see (`--profile`). Divide its counts by (repetitions + 1) × operations.
    func profile(_ profiled: Options.ProfiledVariant, of workload: Workload) {
        guard let variant = workload.variants.first(where: profiled.selects) else { return }
        let repetitions = options.repetitions ?? workload.repetitions
        let operations = min(options.operations ?? workload.operations, variant.maximumOperations ?? .max)
        progress("\(workload.id): profiling \(variant.name), \(repetitions + 1) × \(operations) operations")
        for _ in 0...repetitions { _ = variant.run(operations) }
    }

    /// Heap allocations per operation, counted over a pass of its own after the timed ones (so
    /// that the count costs the timing nothing), on every thread. `nil` for the memory workloads
    /// and where allocations are not counted.
    private func allocationsPerOperation(of variant: Variant, in workload: Workload) -> Double? {
        guard workload.unit.isTime else { return nil }
        let operations = min(workload.allocationCountOperations, variant.maximumOperations ?? .max)
        if let countAllocations = variant.countAllocations { return countAllocations(operations) }
        guard let count = AllocationCounter.count({ _ = variant.run(operations) }) else { return nil }
        return Double(count) / Double(operations)
    }
}
