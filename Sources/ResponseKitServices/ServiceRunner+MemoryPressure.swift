import Dispatch
import ResponseKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceRunner {
    /// Starts the monitor the app and the environment ask for, and says in the log what it
    /// watches, or why nothing; a refusal never fails the run.
    func watchMemoryPressure() {
        #if os(Linux)
        let files: [MemoryPressureFile]
        switch MemoryPressureFile.choose(for: memoryPressure, environment: environment, places: memoryPressurePlaces) {
        case .off(let reason):
            if let reason { log("not watching memory pressure: \(reason)") }
            return
        case .watch(let choice):
            files = choice
        }
        var refusals: [String] = []
        for file in files {
            do {
                memoryPressureMonitor = try MemoryPressureMonitor(file: file, report: memoryPressureReporter)
            } catch {
                refusals.append(error.description)
                continue
            }
            memoryPressureState = MemoryPressureState(window: file.window)
            let refused = refusals.isEmpty ? "" : "; \(refusals.joined(separator: "; "))"
            log("watching memory pressure at \(file.path) (trigger \"\(file.trigger)\")\(refused)")
            return
        }
        log("not watching memory pressure: \(refusals.joined(separator: "; "))")
        #elseif canImport(Darwin)
        guard let window = memoryPressure.window else { return }
        let monitor = MemoryPressureMonitor(report: memoryPressureReporter)
        memoryPressureMonitor = monitor
        memoryPressureState = MemoryPressureState(window: window)
        log("watching memory pressure with \(monitor.name)")
        #endif
    }

    /// Hands the monitor's reports, which arrive on the main queue, to the runner.
    var memoryPressureReporter: @Sendable (MemoryPressureMonitor.Event) -> Void {
        // Safe: the monitor calls this on `.main`, which `run()` drains on the main thread.
        { [weak self] event in MainActor.assumeIsolated { self?.memoryPressureReported(event) } }
    }

    /// Sends ``LifecycleEvent/didReceiveMemoryWarning`` at most once per window, until the
    /// shutdown; stops watching when the kernel ends the watch.
    func memoryPressureReported(_ event: MemoryPressureMonitor.Event) {
        let action: MemoryPressureState.Action?
        switch event {
        case .pressure(let instant):
            action = memoryPressureState?.pressureReported(at: instant)
        case .ended(let reason):
            action = memoryPressureState?.stopRequested()
            if action != nil { log("stopped watching memory pressure: \(reason)") }
        }
        perform(action)
    }

    /// Stops the monitor, if it runs: at the shutdown, so no warning follows `willTerminate`.
    func stopWatchingMemoryPressure() {
        perform(memoryPressureState?.stopRequested())
    }

    private func perform(_ action: MemoryPressureState.Action?) {
        switch action {
        case .sendWarning:
            log("memory is short; sending \(LifecycleEvent.didReceiveMemoryWarning)")
            _ = try? manager.send(.didReceiveMemoryWarning)
        case .stopMonitor:
            memoryPressureMonitor?.stop()
            memoryPressureMonitor = nil
        case nil:
            break
        }
    }
}
