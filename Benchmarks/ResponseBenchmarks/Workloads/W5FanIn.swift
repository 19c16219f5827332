/// W5: a fan-in. `width` pending responses are combined into one, that one is observed, then
/// every input is resolved. Figures are per element: a repetition runs
/// `operations / width` fan-ins (one narrower fan-in in a smoke run).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum W5FanIn {
    /// The number of responses combined into one.
    static let width = 1_000

    static var workload: Workload {
        let responseKit = ResponseKitComposition.fanIn
        return Workload(
            id: "W5",
            title: "fan-in of \(width) responses into one",
            unit: .nanosecondsPerElement,
            operations: 50_000,
            smokeOperations: 20,
            target: .ratio(1.5),
            allocationBudget: 3,
            responseKit: responseKit,
            missingNote: responseKit == nil ? ResponseKitComposition.missingAll : nil,
            floor: Variant(name: "final class + Mutex<closure?>, all", role: .floor) { floor(elements: $0) },
            alternatives: [
                Variant(name: "withTaskGroup", role: .alternative, maximumOperations: 20_000) {
                    taskGroup(elements: $0)
                }
            ]
        )
    }

    /// How a repetition of `elements` elements splits into fan-ins.
    static func shape(elements: Int) -> (fanIns: Int, width: Int) {
        let width = min(elements, Self.width)
        return (max(elements / width, 1), width)
    }

    static func floor(elements: Int) -> Double {
        let (fanIns, width) = shape(elements: elements)
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(fanIns * width) {
            for _ in 0..<fanIns {
                var inputs: [IntPromise] = []
                var resolvers: [IntResolver] = []
                inputs.reserveCapacity(width)
                resolvers.reserveCapacity(width)
                for _ in 0..<width {
                    let (input, resolver) = IntResolver.pending()
                    inputs.append(input)
                    resolvers.append(resolver)
                }
                IntPromise.all(inputs).observe { values in tally.add(values.reduce(0, &+)) }
                for (index, resolver) in resolvers.enumerated() {
                    resolver.resolve(index)
                }
            }
        }
        expect(tally, fanIns: fanIns, width: width, in: "W5 floor")
        return nanoseconds
    }

    /// Swift concurrency's fan-in: a task group with one child task per element.
    static func taskGroup(elements: Int) -> Double {
        let (fanIns, width) = shape(elements: elements)
        let (nanoseconds, total) = Elsewhere.inTask {
            var total = 0
            let nanoseconds = await Stopwatch.nanosecondsPerOperation(fanIns * width) {
                for _ in 0..<fanIns {
                    total &+= await withTaskGroup(of: Int.self) { group in
                        for index in 0..<width {
                            group.addTask { index }
                        }
                        return await group.reduce(0, &+)
                    }
                }
            }
            return (nanoseconds, total)
        }
        precondition(total == fanIns * Tally.sum(ofFirst: width), "W5 withTaskGroup: wrong total \(total)")
        return nanoseconds
    }

    /// Traps unless each fan-in delivered once, with the sum of its inputs.
    static func expect(_ tally: Tally, fanIns: Int, width: Int, in variant: String) {
        tally.expect(count: fanIns, total: fanIns * Tally.sum(ofFirst: width), in: variant)
    }
}
