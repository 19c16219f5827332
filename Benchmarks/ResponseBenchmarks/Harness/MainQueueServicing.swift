/// Who services the main queue while a workload that delivers there runs: each of W6 and W7 comes
/// in both forms, with the same variants, so that ratios can be compared within one run.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum MainQueueServicing {
    /// The benchmark's main thread runs `RunLoop.main`, as an app's main thread does; main-queue
    /// jobs run on the main thread. Timed in the harness's own process (``MainRunLoop``).
    case runLoop
    /// The main thread calls `dispatchMain()`, as a server or a command-line tool does; on Linux
    /// main-queue jobs then run on a Dispatch worker thread, one at a time. `dispatchMain()` never
    /// returns, so each repetition runs in a child process (``DispatchMainChild``).
    case dispatchMain

    /// The workload's id: `base` for the run loop (`W6`, the id the issue and CI know), and
    /// `base/dispatchMain` for the other form, so that `--filter W6` selects both.
    func id(_ base: String) -> String {
        switch self {
        case .runLoop: base
        case .dispatchMain: base + "/dispatchMain"
        }
    }

    /// The workload's title, which names `dispatchMain()` when that services the main queue.
    func title(_ base: String) -> String {
        switch self {
        case .runLoop: base
        case .dispatchMain: base + ", dispatchMain()"
        }
    }

    /// Whether the harness's warm-up run helps: it warms the harness's own process, where the
    /// run loop form is timed; each `dispatchMain` child warms itself up instead.
    var warmsUpInProcess: Bool {
        self == .runLoop
    }

    /// A variant of the workload `workloadID` whose operations are `work`, timed with the main
    /// queue serviced this way.
    ///
    /// The variant keeps `work`, so that the child process of a `dispatchMain` workload finds it
    /// by the workload's id and the variant's name. There the allocations are counted too, since
    /// the harness's counter sees only its own process.
    func variant(
        _ name: String,
        role: Variant.Role,
        of workloadID: String,
        work: @escaping @MainActor (_ operations: Int) -> MainQueueWork
    ) -> Variant {
        switch self {
        case .runLoop:
            Variant(name: name, role: role, mainQueueWork: work) { operations in
                MainRunLoop.measure(operations, work(operations))
            }
        case .dispatchMain:
            Variant(
                name: name,
                role: role,
                mainQueueWork: work,
                countAllocations: { operations in
                    DispatchMainChild.measure(workloadID, variant: name, operations: operations).allocations
                },
                run: { operations in
                    DispatchMainChild.measure(workloadID, variant: name, operations: operations).nanoseconds
                }
            )
        }
    }
}
