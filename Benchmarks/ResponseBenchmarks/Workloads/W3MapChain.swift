/// W3: a pending response, ten `map` steps, one callback on the last; then the first is resolved
/// and the value flows down the chain. One operation is one whole chain. Every variant runs on a
/// thread that is not the main thread (see ``ResponseKitComposition/mapChain``).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum W3MapChain {
    /// The number of `map` steps in a chain.
    static let steps = 10

    static var workload: Workload {
        let responseKit = ResponseKitComposition.mapChain
        return Workload(
            id: "W3",
            title: "\(steps)-step map chain, resolve, observe the end",
            unit: .nanosecondsPerOperation,
            operations: 20_000,
            smokeOperations: 10,
            target: .ratio(1.5),
            allocationBudget: 22,
            responseKit: responseKit,
            missingNote: responseKit == nil ? ResponseKitComposition.missingMap : nil,
            floor: Variant(name: "final class + Mutex<closure?>, map", role: .floor) { operations in
                Elsewhere.onThread { floor(operations: operations) }
            }
        )
    }

    static func floor(operations: Int) -> Double {
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                let (first, resolver) = IntResolver.pending()
                var last = first
                for _ in 0..<steps {
                    last = last.map { $0 &+ 1 }
                }
                last.observe { tally.add($0) }
                resolver.resolve(index)
            }
        }
        expect(tally, operations: operations, in: "W3 floor")
        return nanoseconds
    }

    /// Traps unless each chain delivered its start value plus one per step.
    static func expect(_ tally: Tally, operations: Int, in variant: String) {
        tally.expect(count: operations, total: Tally.sum(ofFirst: operations, offset: steps), in: variant)
    }
}
