import ResponseKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceRunner {
    /// Reloads, if the state allows; otherwise says why not.
    func reload(reason: String) {
        guard let action = state.reloadRequested() else {
            switch state.phase {
            case .launching: log("\(reason) while starting; not reloading: the services read their configuration now")
            case .reloading: log("\(reason) during a reload; reloading once more after it")
            case .running, .shuttingDown, .exited: log("\(reason) during shutdown; not reloading")
            }
            return
        }
        perform(action, reason: reason)
    }

    /// Tells the supervisor, sends `didReceiveReloadRequest` to the running services, and tells
    /// the state once every one has answered or missed ``ServiceTimeouts/reload``.
    func reloadServices(reason: String) {
        log("\(reason); reloading")
        // systemd (`Type=notify-reload`) tells this reload from an earlier one by the timestamp.
        let now = SystemdNotifier.monotonicMicroseconds()
        notifySupervisor(["RELOADING=1", "MONOTONIC_USEC=\(now)", "STATUS=reloading"])
        let reloading: Response<Void>
        do {
            reloading = try manager.send(.didReceiveReloadRequest)
        } catch {
            reloading = .succeeded((), on: .immediate)  // stopping already: the state ignores the answer
        }
        reloading.mainActor.onResult { [self] result in
            var failure: String?
            if case .failure(let error) = result {
                let failures = (error as? ServiceManagerError)?.failures.map(\.description)
                failure = failures?.joined(separator: "; ") ?? "\(error)"
            }
            guard let action = state.reloadFinished(failure: failure) else { return }
            perform(action, reason: "reloaded")
        }
    }

    /// Tells the supervisor the app is ready again, naming the services that failed to reload,
    /// which run on with the configuration they had; then reloads again if asked meanwhile.
    func finishReload(failure: String?, reloadsAgain: Bool) {
        if let failure {
            log("reload not clean (\(failure)); running on")
            notifySupervisor(["READY=1", "STATUS=\(runningStatus); reload failed: \(failure)"])
        } else {
            log("reloaded")
            notifySupervisor(["READY=1", "STATUS=\(runningStatus)"])
        }
        if reloadsAgain { reloadServices(reason: "reload requested during the reload") }
    }
}
