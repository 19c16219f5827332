@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceRunner {
    /// Makes the notifier and starts the watchdog when the environment asks for them, and says
    /// so in the log; says why not when a variable is set but unusable.
    func connectToSupervisor() {
        do {
            notifier = try SystemdNotifier(environment: environment)
        } catch {
            log("not notifying systemd: \(error)")
        }
        guard let notifier else { return }
        guard let interval = SystemdWatchdog.interval(in: environment) else {
            log("notifying systemd at \(notifier.socketName)")
            return
        }
        // The timer's handler runs on `.main`, which `run()` drains on the main thread.
        watchdog = SystemdWatchdog(interval: interval) { [weak self] in
            MainActor.assumeIsolated { self?.notifySupervisor(["WATCHDOG=1"]) }
        }
        log("notifying systemd at \(notifier.socketName); watchdog pings every \(interval / 2)")
    }

    /// Sends `assignments` to systemd, if it listens; logs the first failure.
    func notifySupervisor(_ assignments: [String]) {
        do {
            try notifier?.send(assignments)
        } catch {
            guard !hasLoggedNotificationFailure else { return }
            hasLoggedNotificationFailure = true
            log("\(error) (later failures are not logged)")
        }
    }
}
