import ResponseKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceManager {
    /// Stops the running services one at a time, in reverse registration order.
    ///
    /// A service start in flight is first allowed to finish (within its start timeout); services
    /// still waiting to start are never started. Then each running service stops once the one
    /// registered after it has answered: succeeded, failed, or missed its ``ServiceTimeouts/stop``
    /// limit. A failure is reported and the next service stops anyway. Once it is called,
    /// ``register(_:file:line:)``, ``start(file:line:)`` and ``send(_:file:line:)`` throw
    /// ``ServiceManagerError/alreadyStopped(file:line:)``.
    ///
    /// Calling it again returns the same response: stopping happens once.
    ///
    /// <!-- example: fragment @MainActor -->
    /// ```swift
    /// let services = ServiceManager()   // registered and started
    /// services.stop().onResult { result in
    ///     let isClean = (try? result.get()) != nil
    ///     exit(isClean ? EXIT_SUCCESS : EXIT_FAILURE)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - file: the call site, named by the error its response fails with. Leave the default.
    ///   - line: the call site, named by the error its response fails with. Leave the default.
    /// - Returns: a response that succeeds once every running service has stopped, or fails with
    ///   ``ServiceManagerError/servicesFailed(_:file:line:)`` listing the services that failed or
    ///   timed out. Callbacks run on the main queue.
    @discardableResult
    public func stop(file: StaticString = #fileID, line: UInt = #line) -> Response<Void> {
        if let stopResponse { return stopResponse }
        let (response, resolver) = makeStepResponse(file: file, line: line)
        stopResponse = response
        stopResolver = resolver
        stopSite = CallSite(file: file, line: line)
        phase = .stopping
        // With a start in flight, its answer continues through `startNext()`, which then skips
        // the waiting services and comes back to `stopNext()`.
        if entryStarting == nil { startNext() }
        return response
    }

    /// Stops the last running service, unless one is stopping; when none is left, finishes.
    /// Called again while it runs (a service answered at once), it stops the next service once
    /// the current call returns.
    func stopNext() {
        stopLoop.run(stopOneService)
    }

    private func stopOneService() {
        guard phase == .stopping, entryStarting == nil else { return }
        guard !entries.contains(where: { $0.status == .stopping }) else { return }
        guard let entry = entries.last(where: { $0.status == .running }) else {
            finishStopping()
            return
        }
        entry.status = .stopping
        let response = entry.service.stop()
        awaitAnswer(response, within: timeouts.stop) { [self] result, missedTheLimit in
            entry.status = .stopped
            if case .failure(let error) = result {
                let failure = ServiceFailure(
                    serviceName: entry.name,
                    step: .stop,
                    error: error,
                    timeout: missedTheLimit ? timeouts.stop : nil,
                    isSkipped: false,
                    registrationSite: entry.registrationSite
                )
                stopFailures.append(failure)
                report(failure)
            }
            stopNext()
        }
    }

    /// Finishes the response of ``stop(file:line:)``, once.
    private func finishStopping() {
        phase = .stopped
        guard let resolver = stopResolver, let site = stopSite else { return }
        stopResolver = nil
        // Reported in stopping order; the error lists them in registration order.
        let failures = stopFailures.reversed() as [ServiceFailure]
        stopFailures = []
        if failures.isEmpty {
            resolver.succeed()
        } else {
            resolver.fail(ServiceManagerError.servicesFailed(failures, file: site.file, line: site.line))
        }
    }
}
