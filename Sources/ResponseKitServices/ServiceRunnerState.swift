/// Where a ``ServiceRunner`` is in the life of the process, and the only code that changes it:
/// the runner tells it what happened, and each transition says what the runner must do next
/// (announce readiness, reload, tell the supervisor, shut down, exit), already recorded as done. A call
/// back into the runner from what it then does (a service requesting shutdown in `willTerminate`)
/// therefore sees the new phase.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct ServiceRunnerState {
    /// Where the runner is.
    enum Phase: Equatable {
        /// Starting the services registered before launch; not yet ready.
        case launching
        /// Every service registered before launch has answered its start; readiness announced.
        case running
        /// The running services are handling a reload request; `isRequestedAgain` once another
        /// request came meanwhile, which starts one more reload when this one is over.
        case reloading(isRequestedAgain: Bool)
        /// A signal, ``ServiceRunner/requestShutdown()``, or a failed start under
        /// ``ServiceRunner/StartFailurePolicy/shutDown``: telling and stopping the services.
        case shuttingDown
        /// The exit status is decided and handed to `exit`.
        case exited
    }

    /// What the runner does next.
    enum Action: Equatable {
        /// Send `didFinishLaunching` and `didBecomeActive`, and tell the supervisor the app is ready
        /// (naming the services that failed to start, if any).
        case announceReadiness
        /// Tell the supervisor which services failed to start, and keep running.
        case reportFailedStarts
        /// Tell the supervisor the app is reloading, and send `didReceiveReloadRequest`.
        case reload
        /// Tell the supervisor the reload is over (ready again, naming a failure); then, when
        /// `reloadsAgain`, reload once more for the request that came meanwhile.
        case finishReload(failure: String?, reloadsAgain: Bool)
        /// Begin the graceful shutdown: tell the supervisor, send `willTerminate`, stop the services.
        case shutDown
        /// End the process now with this status.
        case exit(Int32)
    }

    private(set) var phase = Phase.launching
    /// What a failed start leads to.
    let startFailurePolicy: ServiceRunner.StartFailurePolicy

    init(startFailurePolicy: ServiceRunner.StartFailurePolicy) {
        self.startFailurePolicy = startFailurePolicy
    }

    /// The services registered before launch have all answered their start (or been skipped).
    ///
    /// - Returns: ``Action/announceReadiness`` while launching; nothing once shutdown began.
    mutating func launchFinished() -> Action? {
        guard phase == .launching else { return nil }
        phase = .running
        return .announceReadiness
    }

    /// A service failed to start or missed its limit, whenever it was registered.
    ///
    /// - Returns: ``Action/shutDown`` under the `shutDown` policy; under `keepRunning`,
    ///   ``Action/reportFailedStarts`` once readiness was announced (before it, the announcement
    ///   names the failure); nothing once shutdown began.
    mutating func serviceFailedToStart() -> Action? {
        switch phase {
        case .launching, .running, .reloading:
            if startFailurePolicy.shutsDown {
                phase = .shuttingDown
                return .shutDown
            }
            return phase == .launching ? nil : .reportFailedStarts
        case .shuttingDown, .exited:
            return nil
        }
    }

    /// A reload signal or ``ServiceRunner/requestReload()`` arrived.
    ///
    /// - Returns: ``Action/reload`` while running; nothing while launching (the services are
    ///   reading their configuration for the first time) or shutting down. During a reload,
    ///   nothing yet: one more reload follows it, however many requests came meanwhile.
    mutating func reloadRequested() -> Action? {
        switch phase {
        case .running:
            phase = .reloading(isRequestedAgain: false)
            return .reload
        case .reloading:
            phase = .reloading(isRequestedAgain: true)
            return nil
        case .launching, .shuttingDown, .exited:
            return nil
        }
    }

    /// Every running service has answered the reload request, or missed its limit.
    ///
    /// - Parameter failure: the services that failed to reload, or `nil`.
    /// - Returns: ``Action/finishReload(failure:reloadsAgain:)``; nothing once shutdown began.
    mutating func reloadFinished(failure: String?) -> Action? {
        guard case .reloading(let isRequestedAgain) = phase else { return nil }
        phase = isRequestedAgain ? .reloading(isRequestedAgain: false) : .running
        return .finishReload(failure: failure, reloadsAgain: isRequestedAgain)
    }

    /// A signal or ``ServiceRunner/requestShutdown()`` arrived.
    ///
    /// - Parameter forcedStatus: the status to exit with at once when the shutdown has begun.
    /// - Returns: ``Action/shutDown`` the first time; ``Action/exit(_:)`` with `forcedStatus`
    ///   during the shutdown; nothing after the exit.
    mutating func shutdownRequested(forcedStatus: Int32) -> Action? {
        switch phase {
        case .launching, .running, .reloading:
            phase = .shuttingDown
            return .shutDown
        case .shuttingDown:
            phase = .exited
            return .exit(forcedStatus)
        case .exited:
            return nil
        }
    }

    /// Every service has answered `willTerminate` and its stop.
    ///
    /// - Parameter status: the status the answers call for.
    /// - Returns: ``Action/exit(_:)`` with `status`; nothing when a forced exit came first.
    mutating func shutdownFinished(status: Int32) -> Action? {
        guard phase == .shuttingDown else { return nil }
        phase = .exited
        return .exit(status)
    }
}
