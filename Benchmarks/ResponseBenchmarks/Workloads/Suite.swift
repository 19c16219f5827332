/// Every workload, in the order they run and print; each `dispatchMain` workload right after
/// its `RunLoop.main` twin.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
@MainActor
enum Suite {
    static var workloads: [Workload] {
        [
            W1CreateObserveResolve.workload,
            W2ResolvedThenObserve.workload,
            W3MapChain.workload,
            W4BlockingRoundTrip.workload,
            W4BlockingRoundTrip.mainThreadWorkload,
            W5FanIn.workload,
            W6MainQueueDelivery.workload,
            W6MainQueueDelivery.dispatchMainWorkload,
            W8AwaitResponse.workload,
            W9AsyncWorkAsResponse.workload,
        ]
            + [1, 64, 1_024].flatMap { inFlight in
                [
                    W7InteractorThroughput.workload(inFlight: inFlight),
                    W7InteractorThroughput.workload(inFlight: inFlight, servicedBy: .dispatchMain),
                ]
            }
            + MemoryPerPendingResponse.workloads
            + MemoryPerAwaitingTask.workloads
    }
}
