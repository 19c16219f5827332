import ResponseKit

/// ResponseKit's side of W3 and W5, which use the composition operators `map` and `Response.all`.
///
/// Kept apart from the floors so that the workloads compile without the operators: when an
/// engine lacks them, make `mapChain` and `fanIn` return `nil` and the table shows "—" with
/// ``missingMap`` and ``missingAll`` as notes.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum ResponseKitComposition {
    /// W3 runs on a thread that is not the main thread, floor included: there `map` transforms
    /// inline, as the floor does. From the main thread a `map` without a context hops to a global
    /// queue on purpose (so that a chain never needs the main thread), which is not what W3
    /// measures.
    static var mapChain: Variant? {
        Variant(name: "ResponseKit, map", role: .responseKit) { operations in
            Elsewhere.onThread { mapChain(operations: operations) }
        }
    }

    static var fanIn: Variant? {
        Variant(name: "ResponseKit, Response.all", role: .responseKit) { fanIn(elements: $0) }
    }

    static let missingMap = "this engine has no `map` (the composition issue adds it)"
    static let missingAll = "this engine has no `Response.all` (the composition issue adds it)"

    static func mapChain(operations: Int) -> Double {
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(operations) {
            for index in 0..<operations {
                let (first, resolver) = W1CreateObserveResolve.makePending()
                var last = first
                for _ in 0..<W3MapChain.steps {
                    last = last.map { $0 &+ 1 }
                }
                last.onCompletion { tally.add($0) }
                resolver.succeed(index)
            }
        }
        W3MapChain.expect(tally, operations: operations, in: "W3 ResponseKit")
        return nanoseconds
    }

    static func fanIn(elements: Int) -> Double {
        let (fanIns, width) = W5FanIn.shape(elements: elements)
        let tally = Tally()
        let nanoseconds = Stopwatch.nanosecondsPerOperation(fanIns * width) {
            for _ in 0..<fanIns {
                var inputs: [Response<Int>] = []
                var resolvers: [Response<Int>.Resolver] = []
                inputs.reserveCapacity(width)
                resolvers.reserveCapacity(width)
                for _ in 0..<width {
                    let (input, resolver) = W1CreateObserveResolve.makePending()
                    inputs.append(input)
                    resolvers.append(resolver)
                }
                Response.all(inputs, on: .immediate).onCompletion { values in tally.add(values.reduce(0, &+)) }
                for (index, resolver) in resolvers.enumerated() {
                    resolver.succeed(index)
                }
            }
        }
        W5FanIn.expect(tally, fanIns: fanIns, width: width, in: "W5 ResponseKit")
        return nanoseconds
    }
}
