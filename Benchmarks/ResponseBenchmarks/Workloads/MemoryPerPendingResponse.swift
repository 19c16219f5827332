import ResponseKit

/// M1–M2: what a pending response holding one success callback costs in memory. The callback
/// captures one object, as a presenter's callback captures the presenter.
///
/// - M1 holds a million of them at once and reads resident memory before and after: what the
///   process really pays. This is the figure the target applies to.
/// - M2 holds fewer and asks malloc how many bytes it handed out: the same thing, exact to the
///   byte, headers and rounding included, and quick enough for small counts.
///
/// Heap allocations per W1 operation are counted with callgrind (see Benchmarks/README.md):
/// counting them in-process needs a malloc hook that Swift on Linux does not offer safely.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum MemoryPerPendingResponse {
    static var workloads: [Workload] {
        var workloads: [Workload] = []
        if ResidentMemory.bytes() != nil {
            workloads.append(
                workload(
                    id: "M1",
                    title: "resident memory per pending response + 1 callback",
                    operations: 1_000_000,
                    smokeOperations: 1_000,
                    target: .atMost(96),
                    reading: ResidentMemory.bytes
                ))
        }
        if MallocHeap.bytesInUse() != nil {
            workloads.append(
                workload(
                    id: "M2",
                    title: "malloc'd bytes per pending response + 1 callback",
                    operations: 10_000,
                    smokeOperations: 100,
                    target: nil,
                    reading: MallocHeap.bytesInUse
                ))
        }
        return workloads
    }

    private static func workload(
        id: String,
        title: String,
        operations: Int,
        smokeOperations: Int,
        target: Target?,
        reading: @escaping @Sendable () -> Int?
    ) -> Workload {
        Workload(
            id: id,
            title: title,
            unit: .bytesPerResponse,
            operations: operations,
            smokeOperations: smokeOperations,
            repetitions: 5,
            warmsUp: false,
            target: target,
            responseKit: Variant(name: "ResponseKit", role: .responseKit) { count in
                measure(count, reading: reading, in: "\(id) ResponseKit", make: makeResponseKit) { $1.succeed($0) }
            },
            floor: Variant(name: "final class + Mutex<closure?>", role: .floor) { count in
                measure(count, reading: reading, in: "\(id) floor", make: makeFloor) { $1.resolve($0) }
            }
        )
    }

    private static func makeResponseKit(_ tally: Tally) -> Response<Int>.Resolver {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        response.onCompletion { tally.add($0) }
        // The resolver holds the response strongly: holding it keeps the response alive, pending.
        return resolver
    }

    private static func makeFloor(_ tally: Tally) -> IntPromise {
        let promise = IntPromise.pending()
        promise.observe { tally.add($0) }
        return promise
    }

    private static func measure<Item>(
        _ count: Int,
        reading: () -> Int?,
        in variant: String,
        make: (Tally) -> Item,
        release: (Int, Item) -> Void
    ) -> Double {
        let tally = Tally()
        let bytes = MemoryPerItem.bytes(count: count, reading: reading, make: { make(tally) }, release: release)
        tally.expect(count: count, total: Tally.sum(ofFirst: count), in: variant)
        guard let bytes else { preconditionFailure("\(variant): the memory reading stopped answering") }
        return bytes
    }
}
