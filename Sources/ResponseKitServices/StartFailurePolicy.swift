@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceRunner {
    /// What a ``ServiceRunner`` does when a service fails to start or misses its start limit.
    ///
    /// Some apps are still worth running without a service (a cache, analytics); others are not
    /// (a server whose database is missing answers every request with an error). Either way the
    /// supervisor hears of it at once: under systemd, `STATUS=` names the services that did not
    /// start (with `READY=1` when the app keeps running), or the process exits.
    ///
    /// <!-- example: fragment @MainActor -->
    /// ```swift
    /// let services = ServiceManager()   // and register the services
    /// ServiceRunner(manager: services, startFailurePolicy: .shutDown).run()
    /// ```
    ///
    /// A struct with static members rather than an enum, so that policies can be added without
    /// breaking anyone's `switch`.
    public struct StartFailurePolicy: Hashable, Sendable, CustomStringConvertible {
        private enum Choice: Hashable, Sendable {
            case keepRunning, shutDown
        }

        private let choice: Choice

        /// Runs on without the services that failed to start, which hear no event and are not
        /// stopped; the exit status at the end is ``ServiceRunner/uncleanExitStatus`` all the same.
        /// The default, and the only behaviour before this policy existed.
        public static let keepRunning = StartFailurePolicy(choice: .keepRunning)

        /// Shuts down at the first failed start, as the first signal would: services still waiting
        /// to start are never started, the running ones hear `willTerminate` and are stopped, and
        /// the process exits with ``ServiceRunner/uncleanExitStatus``. Applies to services
        /// registered after launch too. For an app that is useless, or harmful, without any one of
        /// its services, so that a supervisor restarts it or reports it failed.
        public static let shutDown = StartFailurePolicy(choice: .shutDown)

        /// Whether a failed start ends the process.
        var shutsDown: Bool { choice == .shutDown }

        /// `keepRunning` or `shutDown`.
        public var description: String {
            switch choice {
            case .keepRunning: "keepRunning"
            case .shutDown: "shutDown"
            }
        }
    }
}
