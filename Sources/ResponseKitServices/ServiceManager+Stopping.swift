import ResponseKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceManager {
    /// Stops the running services one at a time, in reverse registration order.
    ///
    /// A service start in flight is first allowed to finish (within its start timeout); services
    /// still waiting to start are never started. Then each running service stops once the one
    /// registered after it has answered: succeeded, failed, or missed its ``ServiceTimeouts/stop``
    /// limit, and the ``ChildProcess``es it owns and left running have been ended (SIGTERM, then
    /// SIGKILL after their grace period). A failure is reported and the next service stops anyway.
    /// Once it is called, ``register(_:file:line:)``, ``start(file:line:)`` and
    /// ``send(_:file:line:)`` throw ``ServiceManagerError/alreadyStopped(file:line:)``.
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
        if let response = state.stopResponse { return response }
        let (response, resolver) = makeStepResponse(file: file, line: line)
        // With a start in flight, stopping waits for its answer, then skips the waiting services.
        state.stop(response, StepCall(resolver: resolver, site: CallSite(file: file, line: line)))
        advance()
        return response
    }

    /// Stops `entry`'s service, which the state has marked as stopping, and records its answer.
    func stopService(_ entry: Entry) {
        let response = entry.service.stop()
        awaitAnswer(response, within: timeouts.stop) { [self] result, missedTheLimit in
            var failure: ServiceFailure?
            if case .failure(let error) = result {
                failure = ServiceFailure(
                    serviceName: entry.name,
                    step: .stop,
                    error: error,
                    timeout: missedTheLimit ? timeouts.stop : nil,
                    isSkipped: false,
                    registrationSite: entry.registrationSite
                )
            }
            endChildProcesses(of: entry) { [self] in
                state.entryStopped(entry, failure: failure)
                if let failure { report(failure) }
                advance()
            }
        }
    }

    /// Ends the child processes that `entry`'s service started (``ChildProcess``, `ownedBy:` the
    /// service) and left running, then calls `body`: the next service stops only once they have
    /// exited, since they may rely on it as their service did. At once when there are none.
    private func endChildProcesses(of entry: Entry, then body: @escaping @MainActor () -> Void) {
        let registry = ChildProcessRegistry.shared
        registry.end(registry.children(ownedBy: entry.service), then: body)
    }
}
