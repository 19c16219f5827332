import Foundation

/// Times a variant of a `dispatchMain` workload (`W6/dispatchMain`, `W7/64/dispatchMain`) in a
/// child process whose main thread calls `dispatchMain()`, as a server's or a command-line tool's
/// does.
///
/// `dispatchMain()` never returns, so the harness cannot call it between two repetitions.
/// Instead, each repetition starts the benchmark's own executable again with a private flag:
///
/// ```sh
/// ResponseBenchmarks --serve-main-with-dispatch-main W6/dispatchMain 'ResponseKit, .main' 50000
/// ```
///
/// The child finds the variant in ``Suite`` by the workload's id and the variant's name, and
/// schedules its ``MainQueueWork`` as a main-queue job before calling `dispatchMain()`. It runs the
/// work once to warm up (Dispatch's threads started, the heap grown, as the harness warms up in
/// its own process), then once measured: a main-queue job starts the clock and sets the work
/// going, and the job that sees the last callback stops the clock, checks the results and prints
/// one line, nanoseconds and heap allocations per operation (`nan` where not counted), before
/// `exit(0)`. A failed check traps in the child, whose message reaches standard error.
///
/// The parent reads that line, so a repetition in a child is one figure like any other and the
/// runner's interleaving, medians and allocation pass stay as they are. A child that has not
/// finished after ``limitSeconds`` is killed and the run fails, naming the workload.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum DispatchMainChild {
    /// The flag that starts the child mode, followed by the workload's id, the variant's name
    /// and the number of operations. Not in the usage: only the harness passes it.
    static let flag = "--serve-main-with-dispatch-main"

    /// How long a child may run before the parent kills it and fails the run: far more than any
    /// repetition needs (a full-size one takes well under a second).
    static let limitSeconds = 120

    /// What one child measured.
    struct Measurement {
        let nanoseconds: Double
        /// Heap allocations per operation; `nil` where they are not counted.
        let allocations: Double?
    }

    // MARK: - The parent's side

    /// Runs `operations` operations of the variant named `variant` of `workloadID` in a child
    /// process serviced by `dispatchMain()`, and returns what the child measured. Traps with a
    /// message naming the variant (`fatalError`, whose message a release build keeps) when the
    /// child fails, or does not finish within ``limitSeconds``.
    static func measure(_ workloadID: String, variant: String, operations: Int) -> Measurement {
        let name = "\(workloadID) \(variant)"
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [flag, workloadID, variant, String(operations)]
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            fatalError("\(name): could not start the dispatchMain() child process: \(error)")
        }
        // The child prints one short line, which the pipe's buffer holds until it is read here.
        guard exited.wait(timeout: .now() + .seconds(limitSeconds)) == .success else {
            kill(process.processIdentifier, SIGKILL)
            fatalError("\(name): the dispatchMain() child process did not finish within \(limitSeconds) s; killed it")
        }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationReason == .exit && process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit ? "exit status" : "signal"
            fatalError(
                "\(name): the dispatchMain() child process failed (\(how) \(process.terminationStatus)); what it said is above"
            )
        }
        let fields = printed.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard fields.count == 2 else {
            fatalError("\(name): the dispatchMain() child process printed \(printed.debugDescription)")
        }
        return Measurement(nanoseconds: fields[0], allocations: fields[1].isNaN ? nil : fields[1])
    }

    // MARK: - The child's side

    /// The child mode: measures the variant `arguments` name (the workload's id, the variant's
    /// name, the number of operations) with the main queue serviced by `dispatchMain()`, prints
    /// the figures and exits. Called from `main.swift` on the main thread; never returns.
    @MainActor
    static func serve(_ arguments: [String]) -> Never {
        guard arguments.count == 3, let operations = Int(arguments[2]), operations > 0,
            let variant = Suite.workloads.first(where: { $0.id == arguments[0] })?.variants.first(where: {
                $0.name == arguments[1]
            }),
            let work = variant.mainQueueWork
        else {
            BenchmarkCommand.printError(
                "ResponseBenchmarks: \(flag) needs a main-queue workload's id, one of its variants and a number of "
                    + "operations, not \(arguments)")
            exit(2)
        }
        DispatchQueue.main.async {
            run(work(operations), operations) { _ in
                // A job of its own, so that the warm-up's last job has returned first.
                DispatchQueue.main.async {
                    run(work(operations), operations) { measured in
                        print("\(measured.nanoseconds) \(measured.allocations ?? .nan)")
                        exit(0)
                    }
                }
            }
        }
        dispatchMain()
    }

    /// Starts the clock and `work`, and returns to the main queue; the job that sees the last
    /// callback stops the clock, checks the work and hands the figures to `report`.
    @MainActor
    private static func run(
        _ work: @autoclosure () -> MainQueueWork,
        _ operations: Int,
        then report: @escaping @MainActor (Measurement) -> Void
    ) {
        // As the harness counts around a whole repetition, making the work included.
        let allocationsBefore = AllocationCounter.total
        let work = work()
        let lap = Stopwatch.Lap()
        work.start {
            let nanoseconds = lap.nanosecondsPerOperation(operations)
            let allocations = AllocationCounter.since(allocationsBefore)
            work.check()
            report(
                Measurement(nanoseconds: nanoseconds, allocations: allocations.map { Double($0) / Double(operations) }))
        }
    }
}
